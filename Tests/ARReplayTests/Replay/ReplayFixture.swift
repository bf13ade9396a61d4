import ARDisplayer
import ARFormats
import ARMath
import ARMeasure
import ARRemoteAssist
import ARReplay
import ARSession
import ARSupport
import Foundation

/// A temporary folder with a scene, its track and stroke log, for end-to-end replay tests.
struct ReplayFixture {
  let directory: String

  static var fixtures: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("__Fixtures__").path
  }

  init() throws {
    directory =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("arsim-replay-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  }

  func remove() { try? FileManager.default.removeItem(atPath: directory) }

  func write(_ name: String, _ text: String) throws {
    try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
  }

  /// An ARSim JSON track of `poses` (time, worldFromCamera).
  func writeTrack(_ name: String, _ poses: [(Double, RigidTransform)]) throws {
    let entries = poses.map { t, pose in
      "{\"t\":\(t),\"worldFromCamera\":[\(pose.matrix.columnMajorElements.map { "\($0)" }.joined(separator: ","))]}"
    }
    try write(
      name,
      "{\"format\":\"arsim-track\",\"version\":1,\"poses\":[\(entries.joined(separator: ","))]}")
  }

  /// The lines of a JSON Lines output file, parsed.
  func jsonLines(_ name: String) throws -> [[String: Any]] {
    let text = try String(contentsOfFile: directory + "/out/" + name, encoding: .utf8)
    return try text.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
    }
  }
}
