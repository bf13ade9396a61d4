import ARRender
import Foundation

/// An `arsim render` output folder as the report and `arsim video` read it: `run.json`,
/// `events.jsonl`, `trace.jsonl` and the `frame_NNNNN.png` files (Design §7).
///
/// Every file is optional (an interrupted run has no `run.json`; a `--frames` run may hold
/// frames of several runs); lines that are not JSON objects are skipped and counted in
/// `notes`, never fatal, since the report is how people look at broken runs too. A folder
/// whose sub-folders hold frames (one per participant view of a collaborative scene) lists
/// them in `views`.
public struct RunFolder {
  /// The folder.
  public var path: String
  /// `run.json`'s object, or nil when it is missing or unreadable.
  public var run: [String: JSONScalar]
  /// `run.json`'s `warnings` (the scene's load warnings).
  public var warnings: [String] = []
  /// `run.json`'s `timing` object (seconds and milliseconds per frame by stage).
  public var timing: [(String, Double)]
  /// The event lines in file order.
  public var events: [[String: Any]]
  /// The trace lines in file order, `nodes` only on the lines `nodeSampleStep` samples, and
  /// there only the nodes the report's map draws (planes: `TraceReading.isMapNode`).
  public var trace: [[String: Any]]
  /// A collaborative run's `messages.jsonl` lines (empty when there is none).
  public var messages: [[String: Any]] = []
  /// Output frame numbers that have a `frame_NNNNN.png`, ascending; when `run.json` lists the
  /// frames its run wrote (`framesWritten`), only those: files an earlier run left in the
  /// folder (`arsim render` keeps them) are counted in `earlierRunFrameCount` instead.
  public var frames: [Int]
  /// Frame files in the folder that the run of `run.json` did not write.
  public var earlierRunFrameCount = 0
  /// `run.json`'s `framesWritten`, or nil when it has none.
  public var framesWritten: [Int]?
  /// Sub-folders (names) that hold frames of their own: participant views.
  public var views: [String]
  /// What could not be read, for the report's notes (file: problem).
  public var notes: [String]
  /// Which of `run.json`, `events.jsonl`, `trace.jsonl` and `messages.jsonl` exist (readable or
  /// not).
  public var presentFiles: Set<String> = []

  /// Whether the folder holds anything of a run: one of its files or a frame file.
  public var holdsRun: Bool {
    !presentFiles.isEmpty || !frames.isEmpty || earlierRunFrameCount > 0 || !views.isEmpty
  }

  /// The longest line read from the JSON Lines files (longer lines are skipped): B1's trace
  /// lines are ~380 KB.
  public static let maximumLineBytes = 16 << 20

  /// Reads the folder at `path`.
  /// - Throws: `InputError` `.missingInput` when `path` does not exist or is not a folder.
  public static func load(_ path: String) throws -> RunFolder {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw InputError(.missingInput, InputLocation(file: path), "no such output folder")
    }
    guard isDirectory.boolValue else {
      throw InputError(
        .missingInput, InputLocation(file: path),
        "is a file, not an output folder (name the folder a render wrote)")
    }
    var folder = RunFolder(
      path: path, run: [:], timing: [], events: [], trace: [], frames: [], views: [], notes: [])
    folder.readRunJSON()
    folder.events = folder.readLines("events.jsonl")
    folder.trace = folder.readLines("trace.jsonl", keepsNodesEvery: Self.nodeSampleStep)
    if FileManager.default.fileExists(atPath: path + "/messages.jsonl") {
      folder.messages = folder.readLines("messages.jsonl")
    }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    folder.frames = names.compactMap(Self.frameNumber).sorted()
    if let written = folder.framesWritten { folder.keepFrames(written, of: "run.json's") }
    for name in names.sorted() where !name.hasPrefix(".") {
      var sub: ObjCBool = false
      let child = path + "/" + name
      guard FileManager.default.fileExists(atPath: child, isDirectory: &sub), sub.boolValue,
        let inner = try? FileManager.default.contentsOfDirectory(atPath: child),
        inner.contains(where: { Self.frameNumber($0) != nil })
      else { continue }
      folder.views.append(name)
    }
    return folder
  }

  /// Reads the view sub-folder `name` of `parent`. A participant view of a collaborative run
  /// has files of its own; a view with frames only (`--helper-view`'s `helper/`, whose frames
  /// are the run's frame numbers) takes the parent's `framesWritten` and `fps`, so frames an
  /// earlier run left there are left out as in the parent, and its missing files are no
  /// notes.
  /// - Throws: as `load`.
  public static func loadView(_ name: String, of parent: RunFolder) throws -> RunFolder {
    var view = try load(parent.path + "/" + name)
    guard view.presentFiles.isEmpty, parent.presentFiles.contains("run.json") else { return view }
    view.notes.removeAll { note in
      ["run.json", "events.jsonl", "trace.jsonl"].contains { note.hasPrefix("\($0): missing") }
    }
    view.run["fps"] = parent.run["fps"]
    view.run["scene"] = parent.run["scene"]
    if let written = parent.framesWritten {
      view.framesWritten = written
      view.keepFrames(written, of: "the run's")
    }
    return view
  }

  /// Keeps the `frames` in `written` (the run's `framesWritten`, whose file `owner` names in
  /// the note); the others were written by earlier runs and are counted and noted.
  private mutating func keepFrames(_ written: [Int], of owner: String) {
    let kept = Set(written)
    let files = frames
    frames = files.filter(kept.contains)
    earlierRunFrameCount = files.count - frames.count
    if earlierRunFrameCount > 0 {
      notes.append(
        "frame files: \(earlierRunFrameCount) written by earlier runs (not in \(owner) "
          + "framesWritten), left out")
    }
    // Listed but gone (deleted, or a run.json not of this folder): said, as `arsim video` does.
    let present = Set(files)
    let absent = Set(written).subtracting(present).sorted()
    if let first = absent.first {
      notes.append(
        "frame files: \(absent.count) of \(owner) framesWritten missing (first: "
          + "\(Self.frameName(first)))")
    }
  }

  /// The frame number of a `frame_NNNNN.png` name as the frame loop writes it
  /// (`FrameFileName`), else nil.
  public static func frameNumber(_ name: String) -> Int? {
    guard let (n, kind) = FrameFileName.parse(name), kind == .frame, n >= 0 else { return nil }
    return n
  }

  /// The file name of output frame `n` (`frame_00012.png`), as the frame loop writes it.
  public static func frameName(_ n: Int) -> String { FrameFileName.name(n) }

  /// The output frame rate: `run.json`'s `fps`, else nil.
  public var framesPerSecond: Double? { run["fps"]?.number }

  /// The scene's name: `run.json`'s `scene`, else the folder's name.
  public var sceneName: String {
    run["scene"]?.text ?? FileIO.lastComponent(path)
  }

  private mutating func readRunJSON() {
    let file = path + "/run.json"
    guard FileManager.default.fileExists(atPath: file) else {
      notes.append("run.json: missing (an interrupted run, or not an arsim output folder)")
      return
    }
    presentFiles.insert("run.json")
    guard let bytes = try? FileIO.read(file, maximumBytes: 64 << 20),
      let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
    else {
      notes.append("run.json: not a JSON object")
      return
    }
    for (key, value) in object {
      if let scalar = JSONScalar(value) { run[key] = scalar }
    }
    warnings = (object["warnings"] as? [Any])?.compactMap { $0 as? String } ?? []
    if let listed = object["framesWritten"] {
      let values = listed as? [Any] ?? []
      let numbers = values.compactMap { value -> Int? in
        guard let number = value as? NSNumber, let n = Int(exactly: number.doubleValue), n >= 0
        else { return nil }
        return n
      }
      if listed is [Any], numbers.count == values.count {
        framesWritten = numbers
      } else {
        notes.append("run.json: framesWritten is not a list of frame numbers; ignored")
      }
    }
    // Fields the page shows: a wrong type is said, not shown as if it were right.
    if let scene = object["scene"], !(scene is String) {
      notes.append("run.json: scene is not a string; ignored")
      run["scene"] = nil
    }
    if let fps = object["fps"] {
      let rate = (fps as? NSNumber)?.doubleValue ?? .nan
      if !(rate > 0 && rate.isFinite) {
        notes.append("run.json: fps is not a positive number; ignored")
        run["fps"] = nil
      }
    }
    if let timing = object["timing"] as? [String: Any] {
      self.timing = timing.compactMap { key, value in
        (value as? NSNumber).map { (key, $0.doubleValue) }
      }.sorted { $0.0 < $1.0 }
    }
  }

  /// Trace lines whose `nodes` are kept: every `step(lineCount)`-th (and the last); the
  /// others drop theirs as they are read, so a long run of big scenes (B1: 1 000 nodes, 380 KB
  /// a line) does not hold every node of every frame. The map samples the same lines. The
  /// files are read a block at a time (`JSONLines`): memory holds one line, not the file.
  static func nodeSampleStep(_ lineCount: Int) -> Int { max(1, lineCount / 200) }

  private mutating func readLines(_ name: String, keepsNodesEvery step: ((Int) -> Int)? = nil)
    -> [[String: Any]]
  {
    let file = path + "/" + name
    guard FileManager.default.fileExists(atPath: file) else {
      notes.append("\(name): missing")
      return []
    }
    presentFiles.insert(name)
    var lines: [[String: Any]] = []
    var lineNumbers: [Int] = []
    var lastLine = 0
    var skipped = 0
    var firstSkipped: Int?
    let newlines = JSONLines.forEachLine(file, maximumLineBytes: Self.maximumLineBytes) {
      number, line in
      if let line, line.isEmpty { return }
      lastLine = number
      if let line, let object = Self.object(line, filtersNodes: step != nil) {
        lines.append(object)
        lineNumbers.append(number)
      } else {
        skipped += 1
        if firstSkipped == nil { firstSkipped = number }
      }
    }
    if let step, let newlines {
      // Nodes on every `step(lineCount)`-th line and the last only (`nodeSampleStep`).
      let every = step(newlines + 1)
      for k in lines.indices where k % every != 0 && lineNumbers[k] != lastLine {
        lines[k]["nodes"] = nil
      }
    }
    if newlines == nil { notes.append("\(name): unreadable") }
    if skipped > 0, let firstSkipped {
      notes.append(
        "\(name): \(counted(skipped, "line not a JSON object", plural: "lines not JSON objects")), skipped "
          + "(first: line \(firstSkipped))")
    }
    return lines
  }

  /// One line's object, or nil when it is not a JSON object. With `filtersNodes` (the trace),
  /// its `nodes` are only those the map draws (`TraceReading.isMapNode`); only the elements
  /// that may be such a node are parsed (`TraceLineNodes`).
  private static func object(_ line: UnsafeBufferPointer<UInt8>, filtersNodes: Bool)
    -> [String: Any]?
  {
    func parse(_ bytes: some Collection<UInt8>) -> Any? {
      try? JSONSerialization.jsonObject(with: Data(bytes))
    }
    guard filtersNodes, let (rest, elements) = TraceLineNodes.split(line) else {
      guard var object = parse(line) as? [String: Any] else { return nil }
      if filtersNodes, let nodes = object["nodes"] as? [Any] {
        object["nodes"] = nodes.compactMap { $0 as? [String: Any] }.filter(TraceReading.isMapNode)
      }
      return object
    }
    guard var object = parse(rest) as? [String: Any] else { return nil }
    object["nodes"] = elements.compactMap { range -> [String: Any]? in
      let bytes = UnsafeBufferPointer(rebasing: line[range])
      guard mentionsPlane(bytes), let node = parse(bytes) as? [String: Any],
        TraceReading.isMapNode(node)
      else { return nil }
      return node
    }
    return object
  }

  /// Whether `bytes` hold `plane` in any ASCII case: only such a node can be a map node.
  static func mentionsPlane(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let word: [UInt8] = Array("plane".utf8)
    guard bytes.count >= word.count else { return false }
    // `| 0x20` lowers a letter's case and leaves no other byte equal to a lower-case letter.
    for i in 0...(bytes.count - word.count) where bytes[i] | 0x20 == word[0] {
      var k = 1
      while k < word.count, bytes[i + k] | 0x20 == word[k] { k += 1 }
      if k == word.count { return true }
    }
    return false
  }
}

/// A string or number from a JSON file (arrays are kept as their length; objects and
/// Booleans, which `run.json` does not hold at its top level, are not kept).
public enum JSONScalar: Sendable, Hashable {
  /// A string.
  case string(String)
  /// A number.
  case number(Double)
  /// An array's length (its elements are not kept).
  case count(Int)

  init?(_ value: Any) {
    switch value {
    case let s as String: self = .string(s)
    case let n as NSNumber: self = .number(n.doubleValue)
    case let a as [Any]: self = .count(a.count)
    default: return nil
    }
  }

  /// The number, if this is one.
  public var number: Double? {
    if case .number(let x) = self { return x }
    return nil
  }

  /// Text for display: the string, the number, `N items`.
  public var text: String? {
    switch self {
    case .string(let s): s
    case .number(let x): x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    case .count(let n): "\(n) items"
    }
  }
}
