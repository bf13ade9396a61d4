import ARBatch
import ARReplay
import ARSupport
import Foundation

/// `arsim render … --shard I/N | auto | auto/N` (Documentation/Scaling.md).
extension RenderCommand {
  /// What `--shard` makes of a run: the frames to render, the output folder's default and
  /// the `run.json` fields (`sceneHash`, `sceneInputs`, `shard`) every render writes.
  struct ShardPlan {
    var frames: ClosedRange<Int>?
    var defaultDirectory: String
    var runFields: [(String, JSONValue)]
    var shard: Shard?
  }

  /// Resolves `--shard` (with `--frames`, the range it splits) for `scene`.
  /// - Parameter environment: the process environment, read for `--shard auto`.
  /// - Throws: `UsageError` for a wrong or unresolvable `--shard` or a shard with no frames;
  ///   `InputError` when an input cannot be read for the scene hash.
  static func shardPlan(
    _ text: String?, frames: ClosedRange<Int>?, scene: ReplayScene,
    environment: [String: String]
  ) throws -> ShardPlan {
    let fingerprint = try SceneFingerprint(
      paths: scene.inputPaths, mayBeMissing: scene.recordedImagePaths)
    var fields: [(String, JSONValue)] = [
      ("sceneHash", .string(fingerprint.sceneHash)),
      (
        "sceneInputs",
        .array(
          fingerprint.files.map {
            .object(
              [
                ("path", .string($0.path)), ("sha256", .string($0.sha256)),
                ("bytes", .integer($0.bytes)),
              ] + ($0.missing ? [("missing", .bool(true))] : []))
          })
      ),
    ]
    guard let text else {
      fields.append(("shard", .null))
      return ShardPlan(
        frames: frames, defaultDirectory: "Output/\(scene.name)", runFields: fields, shard: nil)
    }
    let shard: Shard
    var source = "explicit"
    do {
      if text == "auto" || text.hasPrefix("auto/") {
        var count: Int?
        if text != "auto" {
          guard let n = Int(text.dropFirst("auto/".count)), n >= 1 else {
            throw ShardError("--shard \(InputText.quoted(text)): expected auto/N with N ≥ 1")
          }
          count = n
        }
        let found = try ShardEnvironment.shard(environment: environment, count: count)
        shard = found.0
        source = found.1.rawValue
      } else {
        shard = try Shard.parse(text)
      }
    } catch let error as ShardError {
      throw UsageError(error.description)
    }
    let lastFrame = scene.schedule.frameCount - 1
    let job = frames ?? 0...lastFrame
    guard job.upperBound <= lastFrame else {
      throw UsageError(
        "--frames \(job.lowerBound)..\(job.upperBound) is outside the scene's frames 0..\(lastFrame)"
      )
    }
    guard let own = shard.frames(of: job) else {
      throw UsageError(
        "--shard \(shard): \(job.count) frames cannot be split into \(shard.count) shards "
          + "(use at most \(job.count), so that every shard gets a frame)")
    }
    fields.append(
      (
        "shard",
        .object([
          ("index", .integer(shard.index)), ("count", .integer(shard.count)),
          ("frames", .array([.integer(own.lowerBound), .integer(own.upperBound)])),
          ("jobFrames", .array([.integer(job.lowerBound), .integer(job.upperBound)])),
          ("source", .string(source)),
        ])
      ))
    return ShardPlan(
      frames: own,
      defaultDirectory: "Output/\(scene.name)-shards/shard-\(shard.index)-of-\(shard.count)",
      runFields: fields, shard: shard)
  }
}
