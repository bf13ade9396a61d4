import ARMath
import Foundation

/// A temporary folder for end-to-end replay tests: a scene, its track and stroke log go in,
/// `arsim render` writes to `out/`.
public struct ReplayFixture: Sendable {
  /// The folder.
  public let folder = TemporaryFolder("replay")
  /// The folder's path.
  public var directory: String { folder.path }

  /// Makes the folder.
  public init() throws {}

  /// Removes the folder.
  public func remove() { folder.remove() }

  /// Writes `text` to `name` in the folder.
  public func write(_ name: String, _ text: String) throws {
    try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
  }

  /// Writes an ARSim JSON track of `poses` (time in seconds, `worldFromCamera`) to `name`.
  public func writeTrack(_ name: String, _ poses: [(Double, RigidTransform)]) throws {
    let entries = poses.map { t, pose in
      "{\"t\":\(t),\"worldFromCamera\":[\(pose.matrix.columnMajorElements.map { "\($0)" }.joined(separator: ","))]}"
    }
    try write(
      name,
      "{\"format\":\"arsim-track\",\"version\":1,\"poses\":[\(entries.joined(separator: ","))]}")
  }

  /// The lines of the JSON Lines output file `out/<name>`, parsed.
  public func jsonLines(_ name: String) throws -> [[String: Any]] {
    let text = try String(contentsOfFile: directory + "/out/" + name, encoding: .utf8)
    return try text.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
    }
  }
}
