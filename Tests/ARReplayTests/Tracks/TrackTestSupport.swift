import ARMath
import Foundation

/// Paths and temporary files for the camera-track tests.
enum TrackFixtures {
  /// `Tests/ARReplayTests/__Fixtures__/tracks/NAME`.
  static func path(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("__Fixtures__/tracks/\(name)").path
  }

  /// A fresh temporary folder for one test.
  static func temporaryFolder() throws -> String {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("arsim-tracks-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
  }

  /// Writes `text` to a new temporary file named `name` and returns its path.
  static func write(_ text: String, name: String) throws -> String {
    let path = try temporaryFolder() + "/" + name
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }
}

extension RigidTransform {
  /// The camera's forward direction (−Z) in world coordinates.
  var forward: Vector3 { transformDirection(Vector3(0, 0, -1)) }
}
