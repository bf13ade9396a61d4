import ARMath
import ARRender
import ARReplay
import ARSimCLI
import ARTestSupport
import ARTracking
import Foundation
import Testing

/// The tracker in the frame loop, on the bundled `tum-desk-circle` scene at 64 × 48.
@Suite struct TrackingReplayTests {
  static let scenes = Fixtures.repositoryPath("Scenes")

  static func scene(_ tracking: TrackingConfiguration? = nil) throws -> ReplayScene {
    var scene = try ReplayScene.load(
      path: scenes + "/tum-desk-circle.json", registry: .builtIn
    ).resized(width: 64, height: 48)
    if let tracking { scene.tracking = tracking }
    return scene
  }

  struct Run {
    let temporary: TemporaryFolder
    var folder: String { temporary.path }
    var trace: [[String: Any]]
    var events: [[String: Any]]

    func image(_ frame: Int) throws -> Image {
      try Image(contentsOfPNG: folder + "/" + String(format: "frame_%05d.png", frame))
    }
  }

  /// Renders frames 0…`last` into a temporary folder (removed by the caller's `defer`).
  static func run(_ scene: ReplayScene, last: Int = 110) throws -> Run {
    let temporary = TemporaryFolder("tracking")
    let folder = temporary.path
    _ = try Replay(scene: scene).run(
      ReplayOptions(outputDirectory: folder, frameRange: 0...last, threads: 1))
    func lines(_ name: String) throws -> [[String: Any]] {
      try String(contentsOfFile: folder + "/" + name, encoding: .utf8).split(separator: "\n")
        .map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
    }
    return Run(
      temporary: temporary, trace: try lines("trace.jsonl"), events: try lines("events.jsonl"))
  }

  static func active() -> TrackingConfiguration {
    var c = TrackingConfiguration()
    c.isActive = true
    return c
  }

  static func strokeTranslations(_ line: [String: Any]) -> [[Double]] {
    (line["nodes"] as? [[String: Any]] ?? []).filter { $0["stroke"] != nil }.map {
      Array(($0["worldTransform"] as? [Double] ?? [])[12..<15])
    }
  }

  @Test("a tracking section with zero error renders the same frames and nodes as none")
  func zeroError() throws {
    let plain = try Self.run(try Self.scene())
    defer { plain.temporary.remove() }
    let tracked = try Self.run(try Self.scene(Self.active()))
    defer { tracked.temporary.remove() }
    for frame in [0, 50, 110] { #expect(try plain.image(frame) == tracked.image(frame)) }
    #expect(!Self.strokeTranslations(plain.trace[110]).isEmpty)
    for (a, b) in zip(plain.trace, tracked.trace) {
      #expect(a["worldFromCamera"] as? [Double] == b["worldFromCamera"] as? [Double])
      #expect(b["worldFromCameraTrue"] as? [Double] == b["worldFromCamera"] as? [Double])
      #expect(a["worldFromCameraTrue"] == nil)
      #expect(Self.strokeTranslations(a) == Self.strokeTranslations(b))
      let tracking = b["tracking"] as? [String: Any]
      #expect(tracking?["state"] as? String == "normal")
      #expect(tracking?["frame"] as? String == "delivered")
    }
    #expect(tracked.events.filter { $0["event"] as? String == "tracking-state" }.count == 1)
  }

  @Test("remote assist places points in front of the estimated camera: an offset moves them")
  func strokesFollowTheEstimate() throws {
    let plain = try Self.run(try Self.scene())
    defer { plain.temporary.remove() }
    var offset = Self.active()
    let shift = Vector3(0.1, -0.05, 0.02)
    offset.relocalizations = [
      Relocalization(t: 0, residual: PoseError(position: shift, rotation: .zero))
    ]
    let shifted = try Self.run(try Self.scene(offset))
    defer { shifted.temporary.remove() }
    let before = Self.strokeTranslations(plain.trace[110])
    let after = Self.strokeTranslations(shifted.trace[110])
    #expect(before.count == after.count && before.count > 10)
    for (a, b) in zip(before, after) {
      #expect(abs(b[0] - a[0] - shift.x) < 1e-9)
      #expect(abs(b[1] - a[1] - shift.y) < 1e-9)
      #expect(abs(b[2] - a[2] - shift.z) < 1e-9)
    }
    // The trace says which camera is which.
    let estimate = try #require(shifted.trace[60]["worldFromCamera"] as? [Double])
    let truth = try #require(shifted.trace[60]["worldFromCameraTrue"] as? [Double])
    #expect(abs(estimate[12] - truth[12] - shift.x) < 1e-12)
    #expect(try #require(plain.trace[60]["worldFromCamera"] as? [Double]) == truth)
  }

  @Test("a dropped tick writes its frame with the last delivered camera, an event and the trace")
  func droppedFrame() throws {
    var drops = Self.active()
    drops.frames.drops = [1.0]  // tick 60, shown by output frame 30
    let run = try Self.run(try Self.scene(drops), last: 31)
    defer { run.temporary.remove() }
    let scene = try Self.scene()
    let tick59 = try scene.viewportCamera(at: 59.0 / 60).worldFromCamera.matrix.columnMajorElements
    let shown = try #require(run.trace[30]["worldFromCamera"] as? [Double])
    // The trace's numbers are printed to round-trip within an ulp.
    #expect(zip(shown, tick59).allSatisfy { abs($0 - $1) < 1e-12 })
    let tick60 = try scene.viewportCamera(at: 1).worldFromCamera.translation
    #expect(abs(shown[12] - tick60.x) > 1e-5)  // the camera moved: not the dropped tick's pose
    #expect((run.trace[30]["tracking"] as? [String: Any])?["frame"] as? String == "dropped")
    #expect((run.trace[31]["tracking"] as? [String: Any])?["frame"] as? String == "delivered")
    let dropped = run.events.filter { $0["event"] as? String == "camera-frame-dropped" }
    #expect(dropped.count == 1 && dropped.first?["frame"] as? Int == 30)
  }

  @Test("measure.tracking and tracking.states give the same timeline")
  func measureAlias() throws {
    let temporary = TemporaryFolder("tracking-alias")
    defer { temporary.remove() }
    let folder = temporary.path
    let track = Self.scenes + "/Inputs/tum_fr1_xyz_groundtruth.txt"
    let states = #"[{"t": 0.5, "state": "limitedExcessiveMotion"}, {"t": 1, "state": "normal"}]"#
    for (name, extra) in [
      ("a", #""measure": {"switchTimes": [], "tracking": \#(states)}"#),
      ("b", #""measure": {"switchTimes": []}, "tracking": {"states": \#(states)}"#),
    ] {
      try """
      {"name": "\(name)", "track": {"path": "\(track)", "format": "tum"}, "duration": 2, \(extra)}
      """.write(toFile: folder + "/\(name).json", atomically: true, encoding: .utf8)
    }
    let a = try ReplayScene.load(path: folder + "/a.json", registry: .builtIn)
    let b = try ReplayScene.load(path: folder + "/b.json", registry: .builtIn)
    #expect(a.tracking.keyframes == b.tracking.keyframes)
    #expect(a.tracking.keyframes.map(\.state) == [.limited(.excessiveMotion), .normal])
    #expect(!a.tracking.isActive && b.tracking.isActive)
  }

  @Test("tracking mistakes name the scene file, line and field")
  func sceneErrors() throws {
    let temporary = TemporaryFolder("tracking-errors")
    defer { temporary.remove() }
    let folder = temporary.path
    let track = Self.scenes + "/Inputs/tum_fr1_xyz_groundtruth.txt"
    try """
    {"name": "e", "track": {"path": "\(track)", "format": "tum"}, "duration": 2,
     "tracking": {
       "error": {"noise": {"position": -1}}}}
    """.write(toFile: folder + "/e.json", atomically: true, encoding: .utf8)
    #expect {
      _ = try ReplayScene.load(path: folder + "/e.json", registry: .builtIn)
    } throws: { error in
      "\(error)".contains("e.json:3") && "\(error)".contains("tracking.error.noise.position")
    }
  }
}
