import ARFormats
import ARRender
import ARSession
import ARSupport
import Foundation

/// `arsim compare EXPECTED ACTUAL [--threshold T] [--max-diff-pixels N | --max-diff-fraction F]
/// [--diff OUT] [--exact] [--verbose]`: compares two PNG files, or two folders of PNGs paired by
/// file name (with their subfolders one level down: participant views, the helper's view).
///
/// Default test: pixelmatch's perceptual test with threshold 0.1 and no differing pixel allowed
/// (anti-aliased pixels reported, not counted), DESIGN §7; `--exact` for byte-equal pixels.
/// Exit codes: 0 within tolerance, 1 different (size mismatch, missing or extra frame in a
/// folder included), 64 usage, 65 unreadable PNG, 66 missing file or folder, 73 when the diff
/// or report cannot be written.
///
/// Files: `--diff OUT` writes the diff image as a PNG at OUT whenever the sizes agree, also when
/// the images match (then all grey); with different sizes nothing is written. Folders: the
/// summary and the first `shownFailures` failing frames are printed (all with `--verbose`);
/// diffs and `report.html` (failing frames first) go to the
/// `--diff` folder, or when it is not given and something fails, to `<ACTUAL>-compare/` beside
/// the actual folder. Failing frames' expected and actual PNGs are copied into that folder
/// (`expected/`, `actual/`, `diff/`), so the report opens in a browser on its own and can be
/// kept as one CI artifact.
enum CompareCommand {
  struct Options {
    var expected = ""
    var actual = ""
    var threshold: Double?
    var allowed = ImageComparison.Tolerance.pixels(0)
    var diff: String?
    var exact = false
    var verbose = false

    var comparison: ImageComparison {
      exact
        ? ImageComparison(mode: .exact)
        : ImageComparison(mode: .perceptual(threshold: threshold ?? 0.1))
    }
  }

  static func run(_ arguments: [String], output: CommandOutput) throws -> ExitCode {
    if arguments.contains("--help") || arguments.contains("-h") {
      output.print(usageText)
      return .ok
    }
    let options = try parse(arguments)
    let expectedKind = try kind(of: options.expected)
    let actualKind = try kind(of: options.actual)
    switch (expectedKind, actualKind) {
    case (.file, .file):
      if let diff = options.diff { try refuseUnusableOutputFile(diff, label: "--diff") }
      return try compareFiles(options, output: output)
    case (.folder, .folder):
      if let diff = options.diff { try refuseUnusableReportFolder(diff, label: "--diff") }
      return try compareFolders(options, output: output)
    default:
      throw UsageError("EXPECTED and ACTUAL must both be files or both be folders")
    }
  }

  static func parse(_ arguments: [String]) throws -> Options {
    let args: Arguments
    do {
      args = try Arguments(
        arguments,
        valueOptions: ["--threshold", "--max-diff-pixels", "--max-diff-fraction", "--diff"],
        flagOptions: ["--exact", "--verbose"])
    } catch let error as UsageError {
      throw UsageError(error.message + "\n" + synopsis)
    }
    var options = Options()
    options.threshold = try args.number(
      "--threshold", expected: "a number from 0 to 1", where: { (0...1).contains($0) })
    let maxPixels = try args.integer("--max-diff-pixels", in: 0...Int.max)
    let maxFraction = try args.number(
      "--max-diff-fraction", expected: "a number from 0 to 1", where: { (0...1).contains($0) })
    options.diff = args.value("--diff")
    options.exact = args.has("--exact")
    options.verbose = args.has("--verbose")
    guard args.positionals.count == 2 else {
      throw UsageError(
        "expected EXPECTED and ACTUAL, got \(args.positionals.count) paths\n\(synopsis)")
    }
    if maxPixels != nil && maxFraction != nil {
      throw UsageError("give --max-diff-pixels or --max-diff-fraction, not both")
    }
    if options.exact && options.threshold != nil {
      throw UsageError("--threshold has no meaning with --exact")
    }
    if let maxPixels { options.allowed = .pixels(maxPixels) }
    if let maxFraction { options.allowed = .fraction(maxFraction) }
    options.expected = args.positionals[0]
    options.actual = args.positionals[1]
    if let diff = options.diff {
      for input in [options.expected, options.actual] where isSameOrInside(diff, input) {
        // Inside an input folder, the diff's files would join the frames compared.
        throw UsageError(
          "--diff \(InputText.quotedPath(diff)) "
            + (FileIO.realPath(diff) == FileIO.realPath(input) && FileIO.exists(diff)
              ? "would overwrite the input \(InputText.quotedPath(input))"
              : "is inside the input \(InputText.quotedPath(input)); choose a path outside it"))
      }
      try refuseOverwritingInputs(
        diff, label: "--diff", inputs: [options.expected, options.actual])
      // Two folders: failing frames are copied into DIFF/expected/ and DIFF/actual/, which
      // must not be (or hold) the folders compared.
      for part in reportParts + ["report.html"] {
        for input in [options.expected, options.actual]
        where isSameOrInside(input, diff + "/" + part) {
          throw UsageError(
            "--diff \(InputText.quotedPath(diff)) would write into the input "
              + "\(InputText.quotedPath(input)) (the report's \(part)); choose a folder that "
              + "holds no input")
        }
      }
    }
    return options
  }

  /// Whether `path` names `folder` itself or something inside it (symbolic links resolved).
  static func isSameOrInside(_ path: String, _ folder: String) -> Bool {
    func resolved(_ p: String) -> String {
      URL(fileURLWithPath: p).standardizedFileURL.resolvingSymlinksInPath().path
    }
    let target = resolved(path)
    let base = resolved(folder)
    return target == base || target.hasPrefix(base.hasSuffix("/") ? base : base + "/")
  }

  /// The two lines of the command's form, shown after a usage mistake.
  static let synopsis = """
    USAGE: arsim compare EXPECTED ACTUAL [--threshold T] [--max-diff-pixels N | --max-diff-fraction F]
                         [--diff OUT] [--exact] [--verbose]
    """

  /// `arsim compare --help`: the form, what it does and the exit codes (as every command's
  /// help ends).
  static let usageText =
    synopsis + "\n\n" + explanation + "\n\n"
    + usage.split(separator: "\n").drop { !$0.hasPrefix("Exit codes") }.joined(separator: "\n")

  /// What the command does with two files and with two folders.
  static let explanation = """
    Two PNG files: prints whether they match; --diff OUT writes the diff image as a PNG at OUT
    (grey where the same, red where different, yellow anti-aliasing), also when they match; not
    when their sizes differ.
    Two folders: pairs the PNGs by name (subfolders one level down too); prints the first
    \(shownFailures) failing frames (--verbose: all) and a summary; when a frame fails, or with
    --diff OUT, writes OUT/report.html (failing frames first) with their images (default OUT:
    <ACTUAL>-compare next to ACTUAL).
    """

  /// How many failing frames a folder comparison prints without `--verbose`.
  static let shownFailures = 10

  enum PathKind { case file, folder }

  static func kind(of path: String) throws -> PathKind {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw InputError(.missingInput, InputLocation(file: path), "no such file or folder")
    }
    return isDirectory.boolValue ? .folder : .file
  }

  // MARK: Two files

  static func compareFiles(_ options: Options, output: CommandOutput) throws -> ExitCode {
    let expected = try Image(contentsOfPNG: options.expected)
    let actual = try Image(contentsOfPNG: options.actual)
    let result = options.comparison.compare(
      expected: expected, actual: actual, makeDiffImage: options.diff != nil)
    let passes = result.isWithin(options.allowed)
    output.print("\(InputText.escaped(options.actual)): \(summary(result, passes: passes))")
    if let path = options.diff {
      if let diff = result.difference?.diffImage {
        try diff.writePNG(to: path)
        output.print("diff: \(InputText.escaped(path))")
      } else {
        output.print("no diff written (sizes differ)")
      }
    }
    return passes ? .ok : .imagesDiffer
  }

  static func summary(_ result: ImageComparisonResult, passes: Bool) -> String {
    switch result {
    case .sizeMismatch(let expected, let actual):
      return "DIFFERENT: size differs, expected \(expected), actual \(actual)"
    case .compared(let difference):
      return (passes ? "ok: " : "DIFFERENT: ") + difference.description
    }
  }

  // MARK: Two folders

  /// One row of the folder report.
  struct Row {
    enum Status { case same, different, missing, extra, unreadable }
    var name: String
    var status: Status
    var detail: String
    var hasImages = false
    var hasDiff = false
    /// The close-up of the differences written to `zoom/{expected,actual,diff}/NAME`.
    var zoom: DifferenceZoom?
  }

  /// `<ACTUAL>-compare` beside ACTUAL: trailing slashes dropped, and an ACTUAL that ends in
  /// `.` or `..` (`report .` from inside it) resolved first, so the report never lands inside
  /// ACTUAL.
  static func defaultReportFolder(actual: String) -> String {
    let last = FileIO.lastComponent(actual)
    if last == "." || last == "..", let resolved = FileIO.realPath(actual), resolved != "/" {
      return resolved + "-compare"
    }
    return FileIO.withoutTrailingSlashes(actual) + "-compare"
  }

  static func compareFolders(_ options: Options, output: CommandOutput) throws -> ExitCode {
    let expectedNames = try pngNames(in: options.expected)
    let actualNames = try pngNames(in: options.actual)
    // Nothing to compare is not a pass: a render that wrote no frames must not look clean.
    guard !expectedNames.isEmpty || !actualNames.isEmpty else {
      throw InputError(
        .missingInput, InputLocation(file: options.actual),
        "no PNG files in EXPECTED (\(InputText.escaped(options.expected))) or ACTUAL")
    }
    let reportFolder = options.diff ?? defaultReportFolder(actual: options.actual)
    var rows: [Row] = []
    var errorCode: ExitCode?
    // A report that cannot be written stops the writing, not the comparison: the verdict
    // lines are printed before the failure is (73).
    var writeFailure: (any Error)?
    var foldersMade = false
    /// The report folder and its parts, made once, at the first failing frame or the report.
    func makeFolders() throws {
      guard !foldersMade else { return }
      try makeReportFolders(reportFolder)
      foldersMade = true
    }
    for name in Set(expectedNames).union(actualNames).sorted() {
      let expectedPath = options.expected + "/" + name
      let actualPath = options.actual + "/" + name
      guard expectedNames.contains(name) else {
        rows.append(Row(name: name, status: .extra, detail: "extra in ACTUAL (no reference)"))
        continue
      }
      guard actualNames.contains(name) else {
        rows.append(Row(name: name, status: .missing, detail: "missing in ACTUAL"))
        continue
      }
      let expected: Image
      let actual: Image
      do {
        expected = try Image(contentsOfPNG: expectedPath)
        actual = try Image(contentsOfPNG: actualPath)
      } catch let error as any LocatedError {
        rows.append(Row(name: name, status: .unreadable, detail: error.description))
        let code = ExitCode(error.kind)
        if errorCode != .missingInput { errorCode = code }
        continue
      }
      let result = options.comparison.compare(
        expected: expected, actual: actual, makeDiffImage: true)
      let passes = result.isWithin(options.allowed)
      var row = Row(
        name: name, status: passes ? .same : .different, detail: summary(result, passes: passes))
      if !passes, writeFailure == nil {
        do {
          try makeFolders()
          try writeFailingFrame(
            &row, result: result, images: (expected, actual),
            paths: (expectedPath, actualPath), into: reportFolder)
        } catch {
          writeFailure = error
        }
      }
      rows.append(row)
    }
    let failingRows = rows.filter { $0.status != .same }
    let failing = failingRows.count
    let shown = options.verbose ? failing : min(failing, shownFailures)
    for row in failingRows.prefix(shown) { output.print("\(row.name): \(row.detail)") }
    if shown < failing {
      output.print("… and \(failing - shown) more failing frames (--verbose lists them all)")
    }
    let counts = Dictionary(grouping: rows, by: { $0.status }).mapValues(\.count)
    // Depth maps are compared too, but they are not frames: count them apart.
    let depthMaps = rows.filter {
      FrameFileName.parse(String($0.name.split(separator: "/").last ?? ""))?.kind == .depth
    }.count
    var line =
      depthMaps == 0
      ? "\(counted(rows.count, "frame")): "
      : "\(rows.count) images (\(counted(rows.count - depthMaps, "frame")), \(depthMaps) depth "
        + (depthMaps == 1 ? "map): " : "maps): ")
    line += "\(counts[.same, default: 0]) same"
    line += ", \(counts[.different, default: 0]) different"
    line += ", \(counts[.missing, default: 0]) missing, \(counts[.extra, default: 0]) extra"
    line += ", \(counts[.unreadable, default: 0]) unreadable"
    output.print(line)
    if failing > 0 || options.diff != nil, writeFailure == nil {
      do {
        try makeFolders()
        let html = report(rows, options: options)
        try FileIO.writeAtomically(Array(html.utf8), to: reportFolder + "/report.html")
        output.print("report: \(reportFolder)/report.html")
      } catch {
        writeFailure = error
      }
    }
    if let writeFailure { throw writeFailure }
    if let errorCode { return errorCode }
    return failing > 0 ? .imagesDiffer : .ok
  }

  /// The report folder's parts: failing frames' copies, diffs and close-ups. A `--diff` folder
  /// one of whose parts (or `report.html`) is or holds an input is refused (`parse`).
  static let reportParts = [
    "expected", "actual", "diff", "zoom", "zoom/expected", "zoom/actual", "zoom/diff",
  ]

  /// Makes the report folder and its parts (`mkdir -p`: existing ones are kept).
  static func makeReportFolders(_ reportFolder: String) throws {
    try FileIO.createDirectory(reportFolder)
    for part in reportParts { try FileIO.createDirectory(reportFolder + "/" + part) }
  }

  /// Writes a failing frame's expected and actual PNGs, its diff and close-ups into the report
  /// folder's parts (made by the caller: `makeReportFolders`), and records them in `row`.
  static func writeFailingFrame(
    _ row: inout Row, result: ImageComparisonResult, images: (expected: Image, actual: Image),
    paths: (expected: String, actual: String), into reportFolder: String
  ) throws {
    let name = row.name
    if let slash = name.lastIndex(of: "/") {
      // A participant's frame: its folder under each part of the report.
      let folder = String(name[..<slash])
      for part in reportParts where part != "zoom" {
        try FileIO.createDirectory(reportFolder + "/" + part + "/" + folder)
      }
    }
    try FileIO.writeAtomically(FileIO.read(paths.expected), to: reportFolder + "/expected/" + name)
    try FileIO.writeAtomically(FileIO.read(paths.actual), to: reportFolder + "/actual/" + name)
    row.hasImages = true
    if let diff = result.difference?.diffImage {
      try diff.writePNG(to: reportFolder + "/diff/" + name)
      row.hasDiff = true
    }
    if let box = result.difference?.boundingBox {
      let zoom = DifferenceZoom(
        box: box, width: images.expected.width, height: images.expected.height)
      try zoom.apply(to: images.expected).writePNG(to: reportFolder + "/zoom/expected/" + name)
      try zoom.apply(to: images.actual).writePNG(to: reportFolder + "/zoom/actual/" + name)
      if let diff = result.difference?.diffImage {
        try zoom.apply(to: diff).writePNG(to: reportFolder + "/zoom/diff/" + name)
      }
      row.zoom = zoom
    }
  }

  /// The PNG files of `folder` and of its subfolders one level down (a collaborative run's
  /// participant views `A/`, `B/` …, `--helper-view`'s `helper/`), as paths relative to it
  /// (`frame_00000.png`, `A/frame_00000.png`), sorted. Hidden entries are skipped.
  static func pngNames(in folder: String) throws -> [String] {
    let files = FileManager.default
    func isPNG(_ name: String) -> Bool { name.lowercased().hasSuffix(".png") }
    let entries: [String]
    do {
      entries = try files.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }
    } catch {
      throw InputError(.missingInput, InputLocation(file: folder), "cannot list the folder")
    }
    var names = entries.filter(isPNG)
    for entry in entries where !isPNG(entry) {
      var isDirectory: ObjCBool = false
      guard files.fileExists(atPath: folder + "/" + entry, isDirectory: &isDirectory),
        isDirectory.boolValue,
        let inner = try? files.contentsOfDirectory(atPath: folder + "/" + entry)
      else { continue }
      names += inner.filter { isPNG($0) && !$0.hasPrefix(".") }.map { entry + "/" + $0 }
    }
    return names.sorted()
  }
}
