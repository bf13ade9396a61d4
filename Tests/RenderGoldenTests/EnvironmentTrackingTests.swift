import ARReplay
import ARTestSupport
import Foundation
import Testing

/// With simulated tracking the environment is the camera image: the true camera sees it,
/// whatever the estimate (Documentation/Tracking.md, "What is rendered from which camera").
@Suite struct EnvironmentTrackingTests {
  /// The bundled room without an app or plane discovery (only the environment is drawn),
  /// with `tracking` as given, written into `folder` with its inputs by absolute path.
  func roomScene(tracking: String, in folder: String, name: String) throws -> ReplayScene {
    let text = try String(
      contentsOfFile: SceneGoldenTests.scenesDirectory + "/tum-measure-room.json", encoding: .utf8
    )
    .replacingOccurrences(of: "\"Inputs/", with: "\"\(SceneGoldenTests.scenesDirectory)/Inputs/")
    .replacingOccurrences(of: #""measure": {"switchTimes": [2.0, 8.0]},"#, with: "")
    .replacingOccurrences(of: #""planeDetection": ["horizontal", "vertical"],"#, with: "")
    .replacingOccurrences(
      of: #""environment":"#, with: #""tracking": \#(tracking), "environment":"#)
    try text.write(toFile: folder + "/\(name).json", atomically: true, encoding: .utf8)
    return try ReplayScene.load(path: folder + "/\(name).json", registry: .builtIn)
      .resized(width: 80, height: 60)
  }

  @Test("Drift moves the estimate, not the room: the frames equal those without tracking errors")
  func roomSeenFromTrueCamera() throws {
    let temporary = TemporaryFolder("environment-tracking")
    defer { temporary.remove() }
    let folder = temporary.path
    // Drift alone (no dropped frames, no jitter): both runs show the frames captured at the
    // same times, so the true cameras are the same.
    let drifting = try roomScene(
      tracking: #"{"seed": 3, "error": {"drift": {"position": 0.3, "rotation": 0.1}}}"#,
      in: folder, name: "drift")
    let exact = try roomScene(tracking: #"{"seed": 3}"#, in: folder, name: "exact")
    let frames = 120...140
    for (scene, name) in [(drifting, "drift"), (exact, "exact")] {
      _ = try Replay(scene: scene).run(
        ReplayOptions(outputDirectory: folder + "/" + name, frameRange: frames, threads: 2))
    }
    // The estimate did move away from the truth (else the test would show nothing).
    let trace = try String(contentsOfFile: folder + "/drift/trace.jsonl", encoding: .utf8)
    let last = try #require(
      trace.split(separator: "\n").last.flatMap {
        try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      })
    let estimate = try #require(last["worldFromCamera"] as? [Double])
    let truth = try #require(last["worldFromCameraTrue"] as? [Double])
    let offset = (12..<15).map { estimate[$0] - truth[$0] }
    #expect((offset.map { $0 * $0 }.reduce(0, +)).squareRoot() > 0.01)
    for frame in frames {
      let file = String(format: "frame_%05d.png", frame)
      let drifted = try Data(contentsOf: URL(fileURLWithPath: folder + "/drift/" + file))
      let exactFrame = try Data(contentsOf: URL(fileURLWithPath: folder + "/exact/" + file))
      #expect(drifted == exactFrame, "frame \(frame)")
    }
  }
}
