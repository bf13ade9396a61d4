import ARBatch

/// `arsim merge OUT SHARD_DIR… [--copy] [--wait-for-lock]`: the shards of one `render --shard` job joined into
/// the folder a single run writes (`ShardMerge`, Documentation/Scaling.md).
enum MergeCommand {
  static func run(_ arguments: [String], output: CommandOutput) throws -> ExitCode {
    let args = try Arguments(
      arguments, valueOptions: [], flagOptions: ["--copy", "--wait-for-lock"])
    guard args.positionals.count >= 2 else {
      throw UsageError(
        "merge takes OUT and at least one SHARD_DIR, got \(args.positionals.count) paths")
    }
    var merge = ShardMerge(shardDirectories: Array(args.positionals.dropFirst()))
    merge.copying = args.has("--copy")
    merge.waitsForLock = args.has("--wait-for-lock")
    merge.lockWaitNotice = { output.printError("arsim merge: \($0)") }
    let out = args.positionals[0]
    let summary = try merge.run(into: out)
    let frames = summary.frames
    output.printError(
      "arsim merge: \(summary.shards) shards, frames \(frames.lowerBound)..\(frames.upperBound) "
        + "→ \(out) (\(summary.linked) files linked, \(summary.copied) copied"
        + (summary.views.isEmpty ? "" : ", views " + summary.views.joined(separator: ", "))
        + ", \(formatted(summary.seconds, 2)) s)")
    return .ok
  }
}
