import ARSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a merged folder: per-frame files linked or copied, line files concatenated,
/// `run.json` last (`ShardMerge`).
struct MergeWriter {
  let output: String
  let copying: Bool
  private(set) var linked = 0
  private(set) var copied = 0
  /// Per view: lines of each merged line file.
  private var lineCounts: [String: [String: Int]] = [:]

  init(output: String, copying: Bool) {
    self.output = output
    self.copying = copying
  }

  /// A shard folder's non-hidden entries, sorted: regular files and folders, never followed
  /// through a link (`lstat`). Hidden entries (the lock `.arsim-lock`) and temporary files
  /// are never read, so they are skipped.
  /// - Throws: `InputError` `.badData` (65) naming an entry that is anything else — a
  ///   symbolic link (a `frame_00020.png -> /etc/passwd` would be copied, or linked, into the
  ///   merge), a FIFO, socket or device — and `.missingInput` when the folder cannot be read.
  static func entries(of directory: String) throws -> (files: [String], folders: [String]) {
    guard let dir = opendir(directory) else {
      throw InputError(
        .missingInput, InputLocation(file: directory), String(cString: strerror(errno)))
    }
    defer { closedir(dir) }
    var files: [String] = []
    var folders: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      guard !name.hasPrefix("."), !name.contains(FileIO.temporarySuffix) else { continue }
      let path = directory + "/" + name
      var info = stat()
      guard lstat(path, &info) == 0 else {
        throw InputError(
          .missingInput, InputLocation(file: path), String(cString: strerror(errno)))
      }
      switch info.st_mode & S_IFMT {
      case S_IFDIR: folders.append(name)
      case S_IFREG: files.append(name)
      case S_IFLNK:
        throw InputError(
          .badData, InputLocation(file: path),
          "is a symbolic link (to \(InputText.quotedPath(Self.linkTarget(path)))); a shard's "
            + "entries must be regular files and folders inside it, as render writes them")
      default:
        throw InputError(
          .badData, InputLocation(file: path),
          "is \(Self.kindName(info.st_mode)); a shard's entries must be regular files and "
            + "folders inside it, as render writes them")
      }
    }
    return (files.sorted(), folders.sorted())
  }

  /// "a FIFO", "a socket", … for an `st_mode` that is neither a file, folder nor link.
  private static func kindName(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFIFO: "a FIFO"
    case S_IFSOCK: "a socket"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    default: "a special file"
    }
  }

  /// Where a symbolic link points (its text, not followed), for messages.
  private static func linkTarget(_ path: String) -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink(path, &buffer, buffer.count - 1)
    guard n >= 0 else { return "?" }
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Creates the output folder, removes its `run.json` and stale temporary files.
  mutating func prepare() throws {
    try FileIO.createDirectory(output)
    FileIO.removeStaleTemporaryFiles(in: output)
    let runFile = try FileIO.destination(for: output + "/run.json")
    if unlink(runFile) != 0, errno != ENOENT {
      throw InputError(
        .cannotCreate, InputLocation(file: output + "/run.json"),
        "cannot remove the previous file: " + String(cString: strerror(errno)))
    }
  }

  /// What merging one folder (`view` "" is the top level) will write, found by `plan` before
  /// anything is written.
  struct FolderPlan {
    /// The view subfolder, "" for the top level.
    let view: String
    /// Per-frame files: the shard's file and the name it gets.
    var frameFiles: [(source: String, name: String)] = []
    /// Line files whose lines name frames: concatenated in shard order.
    var framedLineFiles: [String] = []
    /// Line files whose lines name no frame (a log of the run so far): the last shard's.
    var logFiles: [String] = []
  }

  /// Checks one folder of every shard and returns what merging it will write; writes nothing.
  /// Checks: each shard's entries are regular files and folders (`entries(of:)`); every frame
  /// of the shard has its image; the shards have the same line files; every line file is whole
  /// and names only its shard's frames in order (`LineConcatenation`, reading without
  /// writing); each log is a prefix of the next shard's; a view's `run.json` files parse; and
  /// nothing in the way of a file to be written in `output` (a folder, link or device there).
  /// - Throws: `InputError`, as `ShardMerge.run(into:)` documents.
  static func plan(view: String, shards: [ShardRun], output: String) throws -> FolderPlan {
    let target = view.isEmpty ? output : output + "/" + view
    var plan = FolderPlan(view: view)
    var lineFiles: [String]?
    for run in shards {
      let folder = view.isEmpty ? run.directory : run.directory + "/" + view
      let files = try Self.entries(of: folder).files
      let frames = Set(run.framesWritten)
      // Every frame of the shard has its image at the top level (unless the frames are the
      // views', `views[].framesWritten`), and in each view folder that holds frames.
      let present = Set(
        files.compactMap { name in
          FrameFileName.parse(name).flatMap { $0.kind == .frame ? $0.index : nil }
        })
      if (view.isEmpty && run.run["framesWritten"] != nil) || !present.isEmpty {
        let absent = frames.subtracting(present)
        if !absent.isEmpty {
          throw InputError(
            .missingInput, InputLocation(file: folder),
            "shard \(run.shard): run.json lists frames whose frame_NNNNN.png files are missing: "
              + describeFrames(Array(absent)))
        }
      }
      for name in files {
        guard let frame = FrameFileName.parse(name)?.index, frames.contains(frame) else { continue }
        plan.frameFiles.append((folder + "/" + name, name))
      }
      let jsonl = files.filter { $0.hasSuffix(".jsonl") }
      if let expected = lineFiles, expected != jsonl {
        let absent = Set(expected).symmetricDifference(jsonl).sorted()
        throw InputError(
          .missingInput, InputLocation(file: folder),
          "the shards' line files differ: " + absent.joined(separator: ", ")
            + " is not in every shard's folder")
      }
      lineFiles = jsonl
    }
    for name in lineFiles ?? [] {
      var check = LineConcatenation(checking: target + "/" + name)
      let paths = shards.map {
        (view.isEmpty ? $0.directory : $0.directory + "/" + view) + "/" + name
      }
      for (run, path) in zip(shards, paths) {
        try check.append(
          path, frames: run.expectedFrames,
          everyFrameOnce: name == "trace.jsonl" ? run.framesWritten : nil)
      }
      if ["trace.jsonl", "events.jsonl"].contains(name) || check.framedLines > 0 {
        plan.framedLineFiles.append(name)
        continue
      }
      // No line names a frame: a log of the whole run up to the shard's last frame (a
      // collaborative scene's messages.jsonl). Each shard's is a prefix of the next one's,
      // and the last shard's is the full run's.
      for (shorter, longer) in zip(paths, paths.dropFirst()) {
        guard try Self.isPrefix(shorter, of: longer) else {
          throw InputError(
            .badData, InputLocation(file: longer),
            "its lines name no frame, so it is read as a log of the run up to the shard's last "
              + "frame, but it does not begin with \(shorter) (the previous shard's): the "
              + "shards' logs disagree")
        }
      }
      plan.logFiles.append(name)
    }
    if !view.isEmpty { _ = try viewRunFiles(view: view, shards: shards) }
    // What is in the way in the output folder, if it exists already.
    let names = plan.frameFiles.map(\.name) + plan.framedLineFiles + plan.logFiles + ["run.json"]
    if FileIO.exists(target) {
      for name in names { _ = try FileIO.destination(for: target + "/" + name) }
    }
    return plan
  }

  /// Writes one folder as `plan` says (checked by `plan(view:shards:output:)`): frames linked
  /// or copied, line files concatenated, a view's own `run.json`.
  /// - Returns: the lines of each merged line file.
  /// - Throws: `InputError` `.cannotCreate` for output failures (and, should a shard change
  ///   between the check and the write, the checks' errors).
  mutating func write(_ plan: FolderPlan, shards: [ShardRun]) throws -> [String: Int] {
    let view = plan.view
    let target = view.isEmpty ? output : output + "/" + view
    try FileIO.createDirectory(target)
    FileIO.removeStaleTemporaryFiles(in: target)
    for (source, name) in plan.frameFiles { try place(source, at: target + "/" + name) }
    var counts: [String: Int] = [:]
    for name in plan.framedLineFiles {
      var concatenation = try LineConcatenation(target: target + "/" + name)
      for run in shards {
        let folder = view.isEmpty ? run.directory : run.directory + "/" + view
        try concatenation.append(
          folder + "/" + name, frames: run.expectedFrames,
          everyFrameOnce: name == "trace.jsonl" ? run.framesWritten : nil)
      }
      try concatenation.commit()
      counts[name] = concatenation.lines
    }
    for name in plan.logFiles {
      let last = shards[shards.count - 1]
      let folder = view.isEmpty ? last.directory : last.directory + "/" + view
      var copy = try LineConcatenation(target: target + "/" + name)
      try copy.append(folder + "/" + name, frames: nil, everyFrameOnce: nil)
      try copy.commit()
      counts[name] = copy.lines
    }
    lineCounts[view] = counts
    if !view.isEmpty { try writeRunFile(view: view, shards: shards, summary: nil) }
    return counts
  }

  /// The shards' `run.json` of view folder `view`, parsed; nil when a shard has none (the
  /// merged view then gets none).
  /// - Throws: `InputError` `.badData` for one that is not valid JSON.
  static func viewRunFiles(view: String, shards: [ShardRun]) throws -> [JSONValue]? {
    let paths = shards.map { $0.directory + "/" + view + "/run.json" }
    guard paths.allSatisfy(FileIO.exists) else { return nil }
    return try paths.map { path in
      do {
        return try RunFileReader.parse(try FileIO.read(path, maximumBytes: 256 << 20))
      } catch let failure as RunFileReader.Failure {
        throw InputError(
          .badData, InputLocation(file: path, byteOffset: failure.offset),
          "not valid JSON: expected \(failure.expected)")
      }
    }
  }

  /// Whether the bytes of file `a` are the first bytes of file `b`.
  /// - Throws: `InputError` `.missingInput` when one cannot be read.
  static func isPrefix(_ a: String, of b: String) throws -> Bool {
    let x = try FileIO.openInput(a)
    defer { close(x) }
    let y = try FileIO.openInput(b)
    defer { close(y) }
    var first = [UInt8](repeating: 0, count: 1 << 20)
    var second = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let n = try readFully(x, &first, a)
      if n == 0 { return true }
      let m = try readFully(y, &second, b)
      guard m >= n, first[0..<n] == second[0..<n] else { return false }
      if n < first.count { return true }  // `a` ended
    }
  }

  /// Reads until `buffer` is full or the file ends; returns the bytes read.
  private static func readFully(_ fd: Int32, _ buffer: inout [UInt8], _ path: String) throws
    -> Int
  {
    var total = 0
    while total < buffer.count {
      let n = buffer.withUnsafeMutableBytes { raw in
        read(fd, raw.baseAddress.map { $0 + total }, raw.count - total)
      }
      if n < 0 {
        if errno == EINTR { continue }
        throw InputError(.badData, InputLocation(file: path), String(cString: strerror(errno)))
      }
      if n == 0 { break }
      total += n
    }
    return total
  }

  /// Hard-links (or copies) `source` to `path` through a temporary name and a rename.
  private mutating func place(_ source: String, at path: String) throws {
    let destination = try FileIO.destination(for: path)
    let temporary = destination + FileIO.temporarySuffix + String(getpid())
    unlink(temporary)
    if !copying, link(source, temporary) == 0 {
      try FileIO.commit(temporary, to: destination, named: path)
      // rename(2) does nothing when both names are already the same file (a merge run
      // again): the temporary link is still there.
      unlink(temporary)
      linked += 1
      return
    }
    let bytes = try FileIO.read(source, maximumBytes: 1 << 32)
    try FileIO.writeAtomically(bytes, to: path)
    copied += 1
  }

  /// Writes `run.json` of `view`: the first shard's, with the counts of the merged folder.
  /// A view folder without a `run.json` in its shards gets none.
  func writeRunFile(view: String, shards: [ShardRun], summary: ShardMerge.Summary?) throws {
    let runs: [JSONValue]
    if view.isEmpty {
      runs = shards.map(\.run)
    } else {
      guard let viewRuns = try Self.viewRunFiles(view: view, shards: shards) else { return }
      runs = viewRuns
    }
    var merged = runs[0]
    let frames = shards.flatMap(\.framesWritten)
    if merged["framesWritten"] != nil {
      merged = merged.setting("framesWritten", .array(frames.map { .integer($0) }))
    }
    // Counts a run accumulates from tick 0 (`events`, `warningEvents`, `warningCount`, `ticks`:
    // every tick up to the last frame, written or skipped) are the last shard's: it replayed
    // every tick up to the job's last frame, as the single run does.
    let last = runs[runs.count - 1]
    for key in Self.cumulativeCounts {
      if merged[key] != nil, let value = last[key] { merged = merged.setting(key, value) }
    }
    // Recorded camera images raise events only for the frames a shard renders: the job's are
    // every shard's together, and the last shard's totals hold only its own.
    for (local, totals) in Self.frameLocalCounts {
      let values = runs.compactMap { $0[local]?.integerValue }
      guard merged[local] != nil, values.count == runs.count, let own = values.last else {
        continue
      }
      let sum = values.reduce(0, +)
      merged = merged.setting(local, .integer(sum))
      for key in totals {
        if let total = merged[key]?.integerValue {
          merged = merged.setting(key, .integer(total - own + sum))
        }
      }
    }
    // The first warning of the run: shard k saw every tick up to its last frame, so the first
    // shard that saw one saw the run's first.
    if merged["firstWarning"] != nil {
      let first = runs.lazy.compactMap { $0["firstWarning"] }.first { $0 != .null }
      merged = merged.setting("firstWarning", first ?? .null)
    }
    if let threads = runs.compactMap({ $0["threads"]?.integerValue }).max() {
      merged = merged.setting("threads", .integer(threads))
    }
    if merged["shard"] != nil { merged = merged.setting("shard", .null) }
    // A scene with several views: per view, the job's frames and the last shard's counts.
    if case .array(let views) = merged["views"], case .array(let lastViews) = last["views"] {
      merged = merged.setting(
        "views",
        .array(
          views.map { entry in
            guard let name = entry["name"]?.stringValue else { return entry }
            var out = entry.setting("framesWritten", .array(frames.map { .integer($0) }))
            let lastEntry = lastViews.first { $0["name"]?.stringValue == name }
            for key in Self.cumulativeCounts {
              if out[key] != nil, let value = lastEntry?[key] { out = out.setting(key, value) }
            }
            return out
          }))
    }
    if merged["timing"] != nil {
      merged = merged.setting("timing", Self.summedTiming(runs, frames: frames.count))
    }
    if let summary {
      merged = merged.setting(
        "merge",
        .object([
          (
            "shards",
            .array(
              shards.map { run in
                .object([
                  ("index", .integer(run.shard.index)), ("directory", .string(run.directory)),
                  (
                    "frames",
                    .array(
                      run.expectedFrames.map { [.integer($0.lowerBound), .integer($0.upperBound)] }
                        ?? [])
                  ),
                  ("threads", run.run["threads"] ?? .null),
                  ("totalSeconds", run.run["timing"]?["totalSeconds"] ?? .null),
                ])
              })
          ),
          ("linkedFiles", .integer(summary.linked)), ("copiedFiles", .integer(summary.copied)),
          ("seconds", .number(summary.seconds)),
        ]))
    }
    let path = (view.isEmpty ? output : output + "/" + view) + "/run.json"
    try FileIO.writeAtomically(Array((merged.text + "\n").utf8), to: path)
  }

  /// `run.json` counts of every tick from τ = 0 to the last frame (Replay's `eventCount`,
  /// warnings; a scene with several views: its `ticks`).
  static let cumulativeCounts = ["events", "warningEvents", "warningCount", "ticks"]

  /// `run.json` counts of a shard's own frames only (the recorded camera images' events), each
  /// with the cumulative counts that include it.
  static let frameLocalCounts: [(local: String, totals: [String])] = [
    ("cameraImageEvents", ["events"]), ("cameraImageWarnings", ["warningEvents", "warningCount"]),
  ]

  /// The shards' `timing` objects summed: `…Seconds` fields added up, `…MillisecondsPerFrame`
  /// recomputed from the summed seconds and the merged frame count (so they read as a single
  /// run's on one machine would, less the skipped ticks' repeated scene logic).
  static func summedTiming(_ runs: [JSONValue], frames: Int) -> JSONValue {
    guard case .object(let pairs) = runs[0]["timing"] else { return runs[0]["timing"] ?? .null }
    var out: [(String, JSONValue)] = []
    for (key, _) in pairs {
      if key.hasSuffix("Seconds") {
        let sum = runs.compactMap { $0["timing"]?[key]?.numberValue }.reduce(0, +)
        out.append((key, .number(sum)))
      } else if key.hasSuffix("MillisecondsPerFrame") {
        let stage = String(key.dropLast("MillisecondsPerFrame".count)) + "Seconds"
        let sum = runs.compactMap { $0["timing"]?[stage]?.numberValue }.reduce(0, +)
        out.append((key, .number(frames == 0 ? 0 : sum * 1000 / Double(frames))))
      } else {
        out.append((key, runs[0]["timing"]?[key] ?? .null))
      }
    }
    return .object(out)
  }
}
