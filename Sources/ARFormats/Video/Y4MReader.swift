import ARSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a YUV4MPEG2 (`.y4m`) file one frame at a time.
///
/// Memory: the reader holds only the header, one `Int` offset per frame seen so far and the
/// frame being read; the file is never loaded whole. Each `FRAME` line may carry parameters
/// (kept, not interpreted). See `Y4MHeader` for the header fields read.
///
/// Not thread-safe (it owns a buffered `FILE *`); use one reader per thread.
public final class Y4MReader {
  /// The path as given.
  public let path: String
  /// The parsed stream header.
  public let header: Y4MHeader
  /// The number of frames, known once `scan()` ran or reading reached the end of the file.
  public private(set) var frameCount: Int?

  private let file: UnsafeMutablePointer<FILE>
  /// Byte offsets of the `FRAME` markers of frames 0..<frameOffsets.count, recorded as met.
  private var frameOffsets: [Int]
  /// The index of the frame whose marker starts at the file position.
  private var nextIndex = 0

  /// Longest header or `FRAME` line accepted, in bytes (including the newline).
  static let maximumLineLength = 4096

  /// Opens `path` and parses its header.
  /// - Throws: `Y4MError.cannotRead` (missing or unreadable file), `.badHeader`, `.unsupported`.
  public init(path: String) throws(Y4MError) {
    let fd: Int32
    do {
      fd = try FileIO.openInput(path)
    } catch let error as InputError {
      throw .cannotRead(error.location, error.reason)
    } catch {
      throw .cannotRead(InputLocation(file: path), "\(error)")
    }
    guard let f = fdopen(fd, "rb") else {
      close(fd)
      throw .cannotRead(InputLocation(file: path), String(cString: strerror(errno)))
    }
    self.path = path
    self.file = f
    let line: [UInt8]
    do throws(Y4MError) {
      guard let l = try Self.readLine(f, path: path, offset: 0, isHeader: true) else {
        throw Y4MError.badHeader(
          InputLocation(file: path, byteOffset: 0, field: "signature"), "the file is empty")
      }
      line = l
      header = try Y4MHeader.parse(line, file: path)
    } catch {
      fclose(f)
      throw error
    }
    frameOffsets = [line.count + 1]
  }

  deinit { fclose(file) }

  /// Reads the next frame, or returns `nil` at the end of the file (then `frameCount` is set).
  /// - Throws: `.badFrameMarker` (no `FRAME` line), `.truncatedFrame` (the file ends inside
  ///   the planes), `.cannotRead` (an I/O error).
  public func nextFrame() throws(Y4MError) -> Y4MFrame? {
    guard let (offset, parameters) = try readMarker() else { return nil }
    let count = header.frameByteCount
    let planesOffset = ftello(file)
    var planes = [UInt8](repeating: 0, count: count)
    let got = planes.withUnsafeMutableBytes { fread($0.baseAddress, 1, count, file) }
    guard got == count else {
      if ferror(file) != 0 {
        throw .cannotRead(
          InputLocation(file: path, byteOffset: Int(planesOffset) + got), "read error")
      }
      throw .truncatedFrame(
        InputLocation(file: path, byteOffset: Int(planesOffset), field: "frame \(nextIndex)"),
        expectedBytes: count, foundBytes: got)
    }
    defer { nextIndex += 1 }
    // `planes.count == header.frameByteCount` holds by construction.
    return Y4MFrame(
      index: nextIndex, byteOffset: offset, header: header, parameters: parameters,
      planes: planes)
  }

  /// The frame at `index` (0-based), or `nil` when the file has no such frame.
  ///
  /// Sequential access costs one read per frame; going back seeks to the recorded offset;
  /// going forward past frames not yet met reads them.
  /// - Complexity: O(1) reads for a frame already met or the next one, O(k) for k frames
  ///   ahead of the furthest frame met.
  /// - Throws: as `nextFrame()`.
  public func frame(at index: Int) throws(Y4MError) -> Y4MFrame? {
    guard index >= 0 else { return nil }
    if let frameCount, index >= frameCount { return nil }
    if index != nextIndex {
      let start = min(index, frameOffsets.count - 1)
      try seek(toFrame: start)
    }
    while nextIndex < index {
      guard try skipFrame() else { return nil }
    }
    return try nextFrame()
  }

  /// Checks the structure of every frame (markers present, planes complete) without reading
  /// the planes, records every frame's offset, sets `frameCount`, and rewinds to frame 0.
  /// - Returns: the number of frames.
  /// - Complexity: O(frames) seeks and short reads.
  /// - Throws: as `nextFrame()`; a truncated last frame is reported here.
  @discardableResult
  public func scan() throws(Y4MError) -> Int {
    try seek(toFrame: frameOffsets.count - 1)
    while try skipFrame() {}
    try seek(toFrame: 0)
    return frameCount ?? 0
  }

  // MARK: Private

  private func seek(toFrame index: Int) throws(Y4MError) {
    let offset = frameOffsets[index]
    guard fseeko(file, off_t(offset), SEEK_SET) == 0 else {
      throw .cannotRead(
        InputLocation(file: path, byteOffset: offset), String(cString: strerror(errno)))
    }
    nextIndex = index
  }

  /// Skips the frame at the file position, checking against the file size that its planes are
  /// complete. Returns false at the end of the file.
  private func skipFrame() throws(Y4MError) -> Bool {
    guard try readMarker() != nil else { return false }
    let planesOffset = Int(ftello(file))
    var status = stat()
    guard fstat(fileno(file), &status) == 0 else {
      throw .cannotRead(
        InputLocation(file: path, byteOffset: planesOffset), String(cString: strerror(errno)))
    }
    let available = Int(status.st_size) - planesOffset
    let count = header.frameByteCount
    guard available >= count else {
      throw .truncatedFrame(
        InputLocation(file: path, byteOffset: planesOffset, field: "frame \(nextIndex)"),
        expectedBytes: count, foundBytes: max(0, available))
    }
    guard fseeko(file, off_t(count), SEEK_CUR) == 0 else {
      throw .cannotRead(
        InputLocation(file: path, byteOffset: planesOffset), String(cString: strerror(errno)))
    }
    nextIndex += 1
    return true
  }

  /// Reads the `FRAME[ params]\n` line at the file position and records its offset; `nil` at
  /// a clean end of file (then sets `frameCount`).
  private func readMarker() throws(Y4MError) -> (offset: Int, parameters: [String])? {
    let offset = Int(ftello(file))
    if nextIndex == frameOffsets.count { frameOffsets.append(offset) }
    guard let line = try Self.readLine(file, path: path, offset: offset, isHeader: false) else {
      frameCount = nextIndex
      // Frame 0's offset (just past the header) stays even in a file of no frames: `scan`
      // and `frame(at:)` seek to it.
      frameOffsets.removeLast(frameOffsets.count - max(nextIndex, 1))
      return nil
    }
    let marker = Array("FRAME".utf8)
    let at = InputLocation(file: path, byteOffset: offset, field: "frame \(nextIndex)")
    guard line.starts(with: marker), line.count == marker.count || line[5] == UInt8(ascii: " ")
    else {
      let shown = String(decoding: line.prefix(16), as: UTF8.self)
      throw .badFrameMarker(at, "expected 'FRAME', found \(InputText.quoted(shown, limit: 16))")
    }
    let parameters = line.dropFirst(marker.count).split(separator: UInt8(ascii: " ")).map {
      String(decoding: $0, as: UTF8.self)
    }
    return (offset, parameters)
  }

  /// The bytes up to (not including) the next `\n`; `nil` at the end of the file before any
  /// byte. A missing newline is a `.badHeader` or `.badFrameMarker` error.
  private static func readLine(
    _ file: UnsafeMutablePointer<FILE>, path: String, offset: Int, isHeader: Bool
  ) throws(Y4MError) -> [UInt8]? {
    func bad(_ reason: String) -> Y4MError {
      isHeader
        ? .badHeader(InputLocation(file: path, byteOffset: offset, field: "header line"), reason)
        : .badFrameMarker(InputLocation(file: path, byteOffset: offset), reason)
    }
    var line: [UInt8] = []
    while true {
      let c = getc(file)
      if c == EOF {
        if ferror(file) != 0 {
          throw .cannotRead(
            InputLocation(file: path, byteOffset: offset + line.count),
            String(cString: strerror(errno)))
        }
        if line.isEmpty { return nil }
        throw bad("the file ends inside a line (no '\\n' after \(line.count) bytes)")
      }
      if c == 0x0A { return line }
      line.append(UInt8(truncatingIfNeeded: c))
      if line.count >= maximumLineLength {
        throw bad("no '\\n' within \(maximumLineLength) bytes")
      }
    }
  }
}
