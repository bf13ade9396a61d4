import ARSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Joins the output folders of the shards of one job (`arsim render --shard I/N`) into the
/// folder a single run of the whole job writes (`arsim merge OUT SHARD_DIR…`,
/// Documentation/Scaling.md).
///
/// Everything is checked before anything is written, so a refused merge leaves OUT as it was:
/// each folder has a `run.json` (a finished shard) with the same `sceneHash`, `arsimVersion`,
/// `frameCount`, shard count and job range; the indices are 1…N exactly once (a missing shard
/// is named with its frames, a shard given twice is an overlap); each shard wrote all the
/// frames the split rule gives it and their files exist; a shard's entries are regular files
/// and folders (a symbolic link, FIFO or device inside a shard is refused, never followed);
/// every shard has the same view subfolders and line files; every line file is whole and in
/// frame order (read once to check, once to write). Then, per folder (the
/// top level and each view subfolder, e.g. a collaborative scene's `DIR/<participant>/`):
/// per-frame files (`NAME_NNNNN.EXT` of the shard's frames) are hard-linked, or copied when
/// linking is impossible or `copying` is set, never symbolically linked; every `*.jsonl` file
/// (`trace.jsonl`, `events.jsonl`, `messages.jsonl`, …) is the shards' files concatenated in
/// shard order, which is frame order, each line checked to name a frame of its own shard (a
/// file whose lines name no frame is a log of the run so far: each shard's must begin the
/// next one's, and the last shard's is kept); and
/// `run.json` comes last with recomputed counts. Every file is written under a temporary name
/// and renamed, and `OUT/run.json` is removed first, so an interrupted merge leaves no
/// `run.json`. Hidden entries (the output lock `.arsim-lock`), temporary files and other files
/// are ignored.
public struct ShardMerge {
  /// The shard folders, as given.
  public var shardDirectories: [String]
  /// Copy frames instead of hard-linking them (default false: link, copying only where the
  /// file system refuses a link, e.g. across devices).
  public var copying = false
  /// Wait for another run's lock on the output folder instead of failing (75), as `render`.
  public var waitsForLock = false
  /// Told `waiting for pid N's lock on OUT` once when the merge has to wait for the lock.
  public var lockWaitNotice: ((String) -> Void)?

  /// Creates a merge of `shardDirectories` (any order).
  public init(shardDirectories: [String]) { self.shardDirectories = shardDirectories }

  /// What a merge wrote.
  public struct Summary: Sendable {
    /// Frames of the merged job.
    public var frames: ClosedRange<Int>
    /// Shards merged.
    public var shards: Int
    /// Files hard-linked.
    public var linked: Int
    /// Files copied (`copying`, or where a link was refused).
    public var copied: Int
    /// Lines of the merged top-level `events.jsonl`.
    public var events: Int
    /// View subfolders merged besides the top level.
    public var views: [String]
    /// Wall-clock seconds.
    public var seconds: Double
  }

  /// Checks the shards and writes the merged folder `output`.
  /// - Throws: `InputError`: `.usage` when `output` is (or is inside) a shard folder or no
  ///   shard is given; `.missingInput` for a missing `run.json`, shard, frame or line file;
  ///   `.badData` for shards that do not belong together or a line naming another shard's
  ///   frame; `.cannotCreate` for output failures.
  public func run(into output: String) throws -> Summary {
    let clock = ContinuousClock()
    let start = clock.now
    let shards = try orderedShards()
    try checkOutput(output, shards: shards)
    for run in shards { try Self.checkNotBeingWritten(run.directory) }
    let views = try viewFolders(shards)
    // Every check passes before the first write, so a refused merge leaves `output` as it was.
    let plans = try ([""] + views).map {
      try MergeWriter.plan(view: $0, shards: shards, output: output)
    }
    try Self.checkEventCounts(shards)
    // The output folder's lock, as a render takes it: no render or merge writes there at once.
    try FileIO.createDirectory(output)
    let lock = try OutputFolder(output).lock(waiting: waitsForLock, notice: lockWaitNotice)
    defer { lock.release() }
    var writer = MergeWriter(output: output, copying: copying)
    try writer.prepare()
    var eventLines = 0
    for plan in plans {
      let counts = try writer.write(plan, shards: shards)
      if plan.view.isEmpty { eventLines = counts["events.jsonl"] ?? 0 }
    }
    let job = shards[0].jobFrames
    let seconds = ContinuousClock.Duration.components(clock.now - start)
    let summary = Summary(
      frames: job, shards: shards.count, linked: writer.linked, copied: writer.copied,
      events: eventLines, views: views, seconds: seconds)
    try writer.writeRunFile(view: "", shards: shards, summary: summary)
    return summary
  }

  /// The shards, read and checked, in index order.
  func orderedShards() throws -> [ShardRun] {
    guard !shardDirectories.isEmpty else {
      throw InputError(.usage, InputLocation(file: "merge"), "no shard folders given")
    }
    let runs = try shardDirectories.map { try ShardRun(directory: $0) }
    let first = runs[0]
    for run in runs.dropFirst() {
      try agree(
        run, first, "arsimVersion", run.arsimVersion, first.arsimVersion,
        "shards rendered by different ARSim versions may differ in their bytes")
      if run.sceneHash != first.sceneHash {
        throw InputError(
          .badData, InputLocation(file: run.runFile, field: "sceneHash"),
          "\(run.sceneHash) differs from \(first.runFile)'s \(first.sceneHash): the shards "
            + "come from different scenes or inputs" + Self.differingInput(run, first))
      }
      try agree(
        run, first, "frameCount", "\(run.frameCount)", "\(first.frameCount)",
        "different scenes")
      try agree(
        run, first, "overlays", Self.overlaysText(run.overlays),
        Self.overlaysText(first.overlays),
        "frames drawn with different overlays (--hud, --debug) would be mixed")
      try agree(
        run, first, "shard.count", "\(run.shard.count)", "\(first.shard.count)",
        "shards of different splits overlap")
      try agree(
        run, first, "shard.jobFrames",
        "\(run.jobFrames.lowerBound)..\(run.jobFrames.upperBound)",
        "\(first.jobFrames.lowerBound)..\(first.jobFrames.upperBound)",
        "shards of different --frames ranges overlap")
    }
    var byIndex: [Int: ShardRun] = [:]
    for run in runs {
      if let other = byIndex[run.shard.index] {
        throw InputError(
          .badData, InputLocation(file: run.directory),
          "is shard \(run.shard) like \(other.directory): overlapping shards (frames "
            + describeFrames(run.framesWritten) + " twice)")
      }
      byIndex[run.shard.index] = run
    }
    let count = first.shard.count
    if byIndex.count < count {
      // Lazily, and only the first few: the count comes from a file (ShardRun bounds it by the
      // job's frames, which may still be many).
      let shown = 8
      let missing = Array((1...count).lazy.filter { byIndex[$0] == nil }.prefix(shown))
      let more = count - byIndex.count - missing.count
      let named = missing.map { index -> String in
        let frames = (try? Shard(index: index, count: count))?.frames(of: first.jobFrames)
        return "\(index)/\(count) (frames "
          + (frames.map { "\($0.lowerBound)..\($0.upperBound)" } ?? "none") + ")"
      }
      let frames = missing.flatMap { index in
        (try? Shard(index: index, count: count))?.frames(of: first.jobFrames).map(Array.init) ?? []
      }
      throw InputError(
        .missingInput, InputLocation(file: "merge"),
        "missing \(missing.count == 1 ? "shard" : "shards") " + named.joined(separator: ", ")
          + (more > 0 ? " and \(more) more" : "") + ": frames " + describeFrames(frames)
          + (more > 0 ? " and more" : "") + " would be missing")
    }
    let ordered = (1...count).compactMap { byIndex[$0] }
    for run in ordered {
      try checkFramesWritten(run, job: first.jobFrames)
    }
    return ordered
  }

  /// Refuses a shard whose `framesWritten` are not exactly its share of `job`. Its share is
  /// compared and listed without making it an array: a run.json may claim a job of 10¹⁸
  /// frames (listing it hung the merge).
  private func checkFramesWritten(_ run: ShardRun, job: ClosedRange<Int>) throws {
    let written = run.framesWritten
    let expected = run.expectedFrames
    guard !(expected.map { written.elementsEqual($0) } ?? written.isEmpty) else { return }
    let extra = written.filter { !(expected?.contains($0) ?? false) }
    // A share of up to 2²⁰ frames is listed as before; a longer one is named by its ends.
    let listable =
      expected.map { range in
        let (span, overflow) = range.upperBound.subtractingReportingOverflow(range.lowerBound)
        return !overflow && span < 1 << 20
      } ?? true
    let share: String
    let absentText: String
    if listable {
      let frames = expected.map(Array.init) ?? []
      let absent = Array(Set(frames).subtracting(written))
      share = describeFrames(frames)
      absentText = absent.isEmpty ? "" : "; missing frames " + describeFrames(absent)
    } else {
      share = expected.map { "\($0.lowerBound)..\($0.upperBound)" } ?? ""
      absentText = "; missing all but \(counted(written.count, "frame")) of them"
    }
    throw InputError(
      absentText.isEmpty ? .badData : .missingInput,
      InputLocation(file: run.runFile, field: "framesWritten"),
      "shard \(run.shard) of frames \(job.lowerBound)..\(job.upperBound) must write frames "
        + share + absentText
        + (extra.isEmpty ? "" : "; frames of other shards " + describeFrames(extra)))
  }

  private func agree(
    _ run: ShardRun, _ first: ShardRun, _ field: String, _ value: String, _ expected: String,
    _ why: String
  ) throws {
    guard value != expected else { return }
    throw InputError(
      .badData, InputLocation(file: run.runFile, field: field),
      "\(value) differs from \(first.runFile)'s \(expected) (\(why))")
  }

  /// A shard's `overlays` as a merge error names them: "--hud", "--debug feature-points",
  /// both, "no overlays", or "no overlays recorded" (a run.json from before the field).
  static func overlaysText(_ value: JSONValue) -> String {
    guard case .object = value else { return "no overlays recorded" }
    var drawn: [String] = []
    if value["hud"] == .bool(true) { drawn.append("--hud") }
    if value["featurePoints"] == .bool(true) { drawn.append("--debug feature-points") }
    return drawn.isEmpty ? "no overlays" : drawn.joined(separator: " and ")
  }

  /// "; the first differing input is the track (…)", from `sceneInputs`.
  static func differingInput(_ a: ShardRun, _ b: ShardRun) -> String {
    guard case .array(let x) = a.run["sceneInputs"], case .array(let y) = b.run["sceneInputs"]
    else { return "" }
    if x.count != y.count { return "; they have \(x.count) and \(y.count) input files" }
    for (p, q) in zip(x, y) where p["sha256"] != q["sha256"] {
      let path = p["path"]?.stringValue ?? "?"
      return
        "; the first file that differs is \(path) (input \(x.firstIndex(of: p).map { $0 + 1 } ?? 0) of \(x.count))"
    }
    return ""
  }

  /// Refuses a shard folder whose output lock (`.arsim-lock`) a render still holds: the shard
  /// is being written (a task still running, or rendering again). The lock file is only
  /// opened for reading, so a shard folder is never written to.
  /// - Throws: `InputError` `.temporaryFailure` (exit 75).
  static func checkNotBeingWritten(_ directory: String) throws {
    let fd = open(directory + "/" + OutputFolder.lockName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { return }  // never locked: rendered before output locks, or copied
    defer { close(fd) }
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      if errno == EINTR { continue }
      guard errno == EWOULDBLOCK else { return }
      throw InputError(
        .temporaryFailure, InputLocation(file: directory),
        "a render is still writing this shard (it holds \(OutputFolder.lockName)); merge when "
          + "it has finished")
    }
    flock(fd, LOCK_UN)
  }

  /// Refuses an output that is a shard folder, lies inside one or holds one (merging into the
  /// shards' own parent would leave the shard folders among the merged frames, where `report`,
  /// `video` and `compare` take them for participant views).
  private func checkOutput(_ output: String, shards: [ShardRun]) throws {
    if let outputIdentity = FileIO.identity(of: output) {
      for run in shards where Self.ancestors(of: run.directory).contains(outputIdentity) {
        throw InputError(
          .usage, InputLocation(file: output),
          "holds the shard folder \(InputText.quotedPath(run.directory)); merge into a folder "
            + "outside the shards' (say, beside it)")
      }
    }
    var shardIdentities: [FileIdentity: String] = [:]
    for run in shards {
      if let identity = FileIO.identity(of: run.directory) {
        shardIdentities[identity] = run.directory
      }
    }
    // The nearest existing folder of `output`, then its parents through `..`.
    var path = output
    while FileIO.identity(of: path) == nil, let slash = path.lastIndex(of: "/") {
      path = slash == path.startIndex ? "/" : String(path[..<slash])
    }
    if FileIO.identity(of: path) == nil { path = "." }
    for _ in 0..<256 {
      if let identity = FileIO.identity(of: path), let shard = shardIdentities[identity] {
        throw InputError(
          .usage, InputLocation(file: output),
          path == output
            ? "is the shard folder \(InputText.quotedPath(shard)); merge into another folder"
            : "is inside the shard folder \(InputText.quotedPath(shard)); merge into another folder"
        )
      }
      let parent = path + "/.."
      guard let here = FileIO.identity(of: path), let up = FileIO.identity(of: parent), here != up
      else { break }
      path = parent
    }
  }

  /// The folders above `directory`: through `..` from the folder itself (where a link leads)
  /// and from the folder that holds it as spelled (a shard given as a link), up to `/`.
  static func ancestors(of directory: String) -> Set<FileIdentity> {
    let trimmed = FileIO.withoutTrailingSlashes(directory)
    var starts = [trimmed]
    if let slash = trimmed.lastIndex(of: "/"), ![".", ".."].contains(FileIO.lastComponent(trimmed))
    {
      starts.append(slash == trimmed.startIndex ? "/" : String(trimmed[..<slash]) + "/.")
    } else if !trimmed.contains("/") {
      starts.append(".")
    }
    var found = Set<FileIdentity>()
    for start in starts {
      var path = start == trimmed ? start + "/.." : start
      for _ in 0..<256 {
        guard let identity = FileIO.identity(of: path), found.insert(identity).inserted else {
          break
        }
        path += "/.."
      }
    }
    return found
  }

  /// The view subfolders (non-hidden folders) of the shards; every shard must have the same.
  private func viewFolders(_ shards: [ShardRun]) throws -> [String] {
    let sets = try shards.map { Set(try MergeWriter.entries(of: $0.directory).folders) }
    let all = sets.reduce(into: Set<String>()) { $0.formUnion($1) }
    for (run, views) in zip(shards, sets) where views != all {
      let absent = all.subtracting(views).sorted()
      throw InputError(
        .missingInput, InputLocation(file: run.directory),
        "has no view folder " + absent.map { InputText.quoted($0) }.joined(separator: ", ")
          + " that other shards have")
    }
    return all.sorted()
  }
}

extension ContinuousClock.Duration {
  /// Seconds as a `Double`.
  static func components(_ d: Duration) -> Double {
    let (s, attoseconds) = d.components
    return Double(s) + Double(attoseconds) * 1e-18
  }
}
