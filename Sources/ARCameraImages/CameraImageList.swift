import ARSupport

#if canImport(Glibc)
  import Glibc
#endif

/// One recorded camera image: when it was taken and where its file is.
public struct CameraImageEntry: Hashable, Sendable {
  /// Capture time in seconds on the recording's clock.
  public var time: Double
  /// The image file (the list's folder joined with the name the list gives).
  public var path: String
  /// The list's line that names it (1-based).
  public var line: Int

  /// Creates an entry.
  public init(time: Double, path: String, line: Int) {
    self.time = time
    self.path = path
    self.line = line
  }
}

/// The kinds of image list a recording may come with.
public enum CameraImageListFormat: String, Hashable, Sendable, CaseIterable {
  /// TUM RGB-D's `rgb.txt`: `timestamp filename` (seconds, space-separated), `#` comments;
  /// names are relative to the list's folder (`rgb/1305031102.175304.png`).
  case tum
  /// EuRoC's (ASL) `mav0/cam0/data.csv`: `timestamp [ns],filename`; names are relative to the
  /// `data` folder beside the list.
  case euroc
  /// A times file beside a folder of images: `seconds filename` per line, names relative to
  /// that folder (as TUM's list, with the folder given separately).
  case times
}

/// A recording's images in time order, read from a TUM `rgb.txt`, an EuRoC `data.csv` or a
/// times file (Documentation/CameraImages.md).
///
/// Names must stay inside the list's folder: an absolute name, a `..` component or a link
/// leading out of it is refused. Times out of order are sorted in and a time given twice keeps
/// its first line, each with a warning naming the line.
public struct CameraImageList: Hashable, Sendable {
  /// The images by increasing time (no two equal).
  public var entries: [CameraImageEntry]
  /// What was repaired (lines out of order, duplicated times), each naming its line.
  public var warnings: [String]

  /// The longest list accepted (64 MiB: about a million lines).
  public static let maximumBytes = 64 << 20

  /// Reads a list.
  /// - Parameters:
  ///   - path: the list file.
  ///   - format: its kind.
  ///   - folder: for `.times`, the folder of the images (default: the list's folder).
  /// - Throws: `InputError` `.missingInput` for an unreadable list, `.badData` naming file,
  ///   line and field for a malformed line, a name leading outside the folder, or no images.
  public static func read(
    path: String, format: CameraImageListFormat, folder: String? = nil
  ) throws -> CameraImageList {
    let bytes = try FileIO.read(path, maximumBytes: maximumBytes)
    let listFolder = Self.folder(of: path)
    let base: String
    switch format {
    case .tum: base = listFolder
    case .euroc: base = listFolder + "/data"
    case .times: base = folder ?? listFolder
    }
    return try parse(bytes, file: path, format: format, base: base)
  }

  /// Parses list bytes (`file` names them in messages; names are joined to `base`). The fuzz
  /// target's entry: no file is opened except to resolve links of names that exist.
  /// - Throws: as `read(path:format:folder:)`.
  public static func parse(
    _ bytes: [UInt8], file: String, format: CameraImageListFormat, base: String
  ) throws -> CameraImageList {
    var entries: [CameraImageEntry] = []
    var warnings: [String] = []
    let resolvedBase = FileIO.realPath(base)
    var lineNumber = 0
    var start = 0
    while start < bytes.count {
      var end = start
      while end < bytes.count, bytes[end] != 0x0A { end += 1 }
      lineNumber += 1
      var line = String(decoding: bytes[start..<end], as: UTF8.self)
      start = end + 1
      if line.hasSuffix("\r") { line.removeLast() }
      let trimmed = line.trimmingSpaces
      if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
      func fail(_ field: String, _ reason: String) -> InputError {
        InputError(.badData, InputLocation(file: file, line: lineNumber, field: field), reason)
      }
      let columns: [Substring]
      let timeField: String
      switch format {
      case .euroc:
        columns = trimmed.split(separator: ",", omittingEmptySubsequences: false)
        timeField = "timestamp [ns]"
      case .tum, .times:
        columns = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
        timeField = "timestamp"
      }
      // TUM's own lists begin with a `timestamp filename` header some copies keep uncommented.
      if lineNumber <= 3, format != .euroc, columns.first == "timestamp" { continue }
      guard columns.count == 2 else {
        throw fail(
          columns.count < 2 ? "filename" : "line",
          "expected 2 columns (\(timeField), filename), found \(columns.count): "
            + InputText.quoted(trimmed, limit: 60))
      }
      let timeText = columns[0].trimmingSpaces
      let time: Double
      if format == .euroc {
        guard let nanoseconds = Int64(timeText), nanoseconds >= 0 else {
          throw fail(
            timeField, "\(InputText.quoted(timeText, limit: 40)) is not a whole number of ns")
        }
        time = Double(nanoseconds / 1_000_000_000) + Double(nanoseconds % 1_000_000_000) * 1e-9
      } else {
        guard let seconds = Double(timeText), seconds.isFinite else {
          throw fail(timeField, "\(InputText.quoted(timeText, limit: 40)) is not a finite number")
        }
        time = seconds
      }
      let name = columns[1].trimmingSpaces
      guard !name.isEmpty, !InputText.containsNUL(name) else {
        throw fail("filename", "empty or not a file name")
      }
      let components = name.split(separator: "/")
      guard !name.hasPrefix("/"), !components.contains("..") else {
        throw fail(
          "filename",
          "\(InputText.quoted(name, limit: 60)) leads outside the folder \(base); refused")
      }
      let path = base + "/" + name
      if let resolved = FileIO.realPath(path), let resolvedBase,
        !(resolved + "/").hasPrefix(resolvedBase + "/")
      {
        throw fail(
          "filename",
          "\(InputText.quoted(name, limit: 60)) is a link leading outside the folder \(base); refused"
        )
      }
      entries.append(CameraImageEntry(time: time, path: path, line: lineNumber))
    }
    guard !entries.isEmpty else {
      throw InputError(.badData, InputLocation(file: file), "no images listed")
    }
    // Repairs: out-of-order lines sorted in (stable), a repeated time keeps its first line.
    var latest = entries[0]
    for entry in entries.dropFirst() {
      if entry.time < latest.time {
        warnings.append(
          "\(InputText.escaped(file)):\(entry.line): time \(entry.time) is before line \(latest.line)'s "
            + "\(latest.time); sorted in")
      } else {
        latest = entry
      }
    }
    let sorted = entries.enumerated().sorted {
      ($0.element.time, $0.offset) < ($1.element.time, $1.offset)
    }.map(\.element)
    var unique: [CameraImageEntry] = []
    unique.reserveCapacity(sorted.count)
    for entry in sorted {
      if let previous = unique.last, previous.time == entry.time {
        warnings.append(
          "\(InputText.escaped(file)):\(entry.line): time \(entry.time) repeats line \(previous.line)'s; "
            + "line \(entry.line) ignored")
        continue
      }
      unique.append(entry)
    }
    // As a camera track's times (README's limits): where a Double no longer resolves 0.1 ms,
    // images closer together fall on one time and the camera image freezes without a word.
    let largest = max(abs(unique[0].time), abs(unique[unique.count - 1].time))
    if let warning = TimeResolution.warning(largest: largest, closer: "images") {
      warnings.append("\(InputText.escaped(file)): " + warning)
    }
    return CameraImageList(entries: unique, warnings: warnings)
  }

  static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }
}

extension StringProtocol {
  var trimmingSpaces: String {
    var view = Substring(self)
    while let first = view.first, first == " " || first == "\t" { view.removeFirst() }
    while let last = view.last, last == " " || last == "\t" { view.removeLast() }
    return String(view)
  }
}
