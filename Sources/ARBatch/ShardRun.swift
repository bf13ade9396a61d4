import ARSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A shard's output folder as `arsim merge` sees it: its `run.json` read and the fields the
/// merge checks (DESIGN §7, Documentation/Scaling.md "run.json fields").
struct ShardRun {
  /// The folder as the user named it.
  let directory: String
  /// Its `run.json`.
  let run: JSONValue
  let shard: Shard
  /// The frames the whole job covers (the `--frames` range, or every frame), inclusive.
  let jobFrames: ClosedRange<Int>
  /// `framesWritten`.
  let framesWritten: [Int]
  let sceneHash: String
  let arsimVersion: String
  let frameCount: Int
  /// `overlays` (`--hud`, `--debug feature-points`), as written; null from an ARSim that did
  /// not record it.
  let overlays: JSONValue

  var runFile: String { directory + "/run.json" }

  /// Reads `directory/run.json`.
  /// - Throws: `InputError` `.missingInput` when the folder is missing or not a folder, or has
  ///   no `run.json` (an unfinished or foreign folder); `.temporaryFailure` when a render still
  ///   holds its output lock (checked first: a shard being rendered has no `run.json` yet);
  ///   `.badData` naming the field that is missing or wrong.
  init(directory: String) throws {
    self.directory = directory
    let path = directory + "/run.json"
    var status = stat()
    guard stat(directory, &status) == 0 else {
      throw InputError(.missingInput, InputLocation(file: directory), "no such shard folder")
    }
    guard status.st_mode & S_IFMT == S_IFDIR else {
      throw InputError(
        .missingInput, InputLocation(file: directory),
        "is not a folder; a shard is the folder an arsim render --shard wrote")
    }
    try ShardMerge.checkNotBeingWritten(directory)
    guard FileIO.exists(path) else {
      throw InputError(
        .missingInput, InputLocation(file: path),
        "missing: the shard did not finish (a run writes run.json last) or the folder is not "
          + "an arsim render output")
    }
    let bytes = try FileIO.read(path, maximumBytes: 256 << 20)
    do {
      run = try RunFileReader.parse(bytes)
    } catch let failure as RunFileReader.Failure {
      throw InputError(
        .badData, InputLocation(file: path, byteOffset: failure.offset),
        "not valid JSON: expected \(failure.expected)")
    }
    func field(_ name: String) -> InputLocation { InputLocation(file: path, field: name) }
    guard let version = run["arsimVersion"]?.stringValue else {
      throw InputError(.badData, field("arsimVersion"), "missing or not a string")
    }
    arsimVersion = version
    guard let hash = run["sceneHash"]?.stringValue else {
      throw InputError(
        .badData, field("sceneHash"),
        "missing: written by an ARSim that records no scene hash, or not by arsim render")
    }
    sceneHash = hash
    guard let count = run["frameCount"]?.integerValue, count >= 1 else {
      throw InputError(.badData, field("frameCount"), "missing or not a positive integer")
    }
    frameCount = count
    overlays = run["overlays"] ?? .null
    // A scene with several views lists the frames per view (`views[].framesWritten`).
    let listed =
      run["framesWritten"]
      ?? run["views"].flatMap { views -> JSONValue? in
        guard case .array(let all) = views else { return nil }
        return all.first?["framesWritten"]
      }
    guard case .array(let written) = listed,
      case let frames = written.compactMap(\.integerValue), frames.count == written.count
    else { throw InputError(.badData, field("framesWritten"), "missing or not integers") }
    framesWritten = frames
    guard let shardValue = run["shard"], shardValue != .null else {
      throw InputError(
        .badData, field("shard"),
        "null: this folder was not rendered with --shard (merge joins the shards of one job)")
    }
    guard let index = shardValue["index"]?.integerValue,
      let n = shardValue["count"]?.integerValue,
      let made = try? Shard(index: index, count: n)
    else {
      throw InputError(.badData, field("shard"), "needs 'index' and 'count', 1 ≤ index ≤ count")
    }
    shard = made
    guard case .array(let job) = shardValue["jobFrames"], job.count == 2,
      let first = job[0].integerValue, let last = job[1].integerValue, 0 <= first, first <= last,
      last < count
    else {
      throw InputError(
        .badData, field("shard.jobFrames"), "needs [first, last] within 0…\(count - 1)")
    }
    jobFrames = first...last
    // As `render --shard` refuses N > M: a count past the job's frames would have the merge
    // list (or wait for) that many shards.
    let jobFrameCount = last - first + 1
    guard made.count <= jobFrameCount else {
      throw InputError(
        .badData, field("shard.count"),
        "\(made.count) is more shards than the job's \(jobFrameCount) frames "
          + "(\(first)..\(last)); a render never splits a job so")
    }
  }

  /// The frames the split rule gives this shard.
  var expectedFrames: ClosedRange<Int>? { shard.frames(of: jobFrames) }
}

/// Frame numbers as inclusive ranges, `3..5, 9, 12..20`, for messages.
func describeFrames(_ frames: [Int], limit: Int = 8) -> String {
  var parts: [String] = []
  var index = 0
  let sorted = frames.sorted()
  while index < sorted.count {
    var end = index
    while end + 1 < sorted.count, sorted[end + 1] == sorted[end] + 1 { end += 1 }
    parts.append(end == index ? "\(sorted[index])" : "\(sorted[index])..\(sorted[end])")
    index = end + 1
  }
  if parts.count > limit {
    return parts.prefix(limit).joined(separator: ", ") + ", … (\(parts.count - limit) more)"
  }
  return parts.joined(separator: ", ")
}
