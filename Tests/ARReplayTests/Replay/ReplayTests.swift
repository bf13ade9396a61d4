import ARFormats
import ARMath
import ARRemoteAssist
import ARReplay
import ARScene
import ARSimCLI
import ARTestSupport
import Foundation
import Testing

@Suite struct ReplayTests {
  /// A scene JSON for a fixture folder.
  static func scene(
    track: String = "track.json", strokes: String = "strokes.jsonl", mode: String = "corrected",
    width: Int = 480, height: Int = 360, fps: Double = 10, duration: Double
  ) -> String {
    """
    {"name": "test", "track": {"path": "\(track)"}, "output": {"width": \(width), "height": \(height), "fps": \(fps)},
     "duration": \(duration), "background": {"color": [0.5, 0.5, 0.5]},
     "remoteAssist": {"strokes": "\(strokes)", "mode": "\(mode)"}}
    """
  }

  static func trace(_ line: [String: Any]) -> (
    camera: Matrix4, k: CameraIntrinsics, nodes: [[String: Any]]
  ) {
    let m = Matrix4(columnMajor: line["worldFromCamera"] as? [Double] ?? [])
    let i = line["intrinsics"] as? [String: Any] ?? [:]
    let k = CameraIntrinsics(
      fx: i["fx"] as? Double ?? 0, fy: i["fy"] as? Double ?? 0, cx: i["cx"] as? Double ?? 0,
      cy: i["cy"] as? Double ?? 0, width: i["width"] as? Int ?? 0, height: i["height"] as? Int ?? 0)
    return (m, k, line["nodes"] as? [[String: Any]] ?? [])
  }

  /// Least-squares similarity z ≈ a·w + b with complex a (rotation and positive scale, no
  /// reflection); returns a and the RMS residual.
  static func similarityFit(from w: [Vector2], to z: [Vector2]) -> (
    scale: Double, angle: Double, rms: Double
  ) {
    let n = Double(w.count)
    let wc = w.reduce(Vector2(0, 0), +) * (1 / n)
    let zc = z.reduce(Vector2(0, 0), +) * (1 / n)
    var re = 0.0
    var im = 0.0
    var norm = 0.0
    for (p, q) in zip(w, z) {
      let a = p - wc
      let b = q - zc
      re += a.x * b.x + a.y * b.y  // Σ conj(a)·b
      im += a.x * b.y - a.y * b.x
      norm += a.dot(a)
    }
    let ar = re / norm
    let ai = im / norm
    var squared = 0.0
    for (p, q) in zip(w, z) {
      let a = p - wc
      let predicted = Vector2(ar * a.x - ai * a.y, ar * a.y + ai * a.x) + zc
      let r = predicted - q
      squared += r.dot(r)
    }
    return ((ar * ar + ai * ai).squareRoot(), atan2(ai, ar), (squared / n).squareRoot())
  }

  @Test(
    "projected sphere centres reproduce each Quick, Draw! stroke up to a similarity (≤ 1 px RMS)")
  func drawingReproduced() throws {
    let fixture = try ReplayFixture()
    defer { fixture.remove() }
    let drawing = try QuickDrawDrawing.read(
      path: Fixtures.path("quickdraw/raw_cat_24.ndjson"), index: 0)
    var helper = HelperSimulation()
    helper.start = 0.2
    // The log comes from the command users run.
    let code = ARSimCLI.run(
      arguments: [
        "strokes", "from-quickdraw", Fixtures.path("quickdraw/raw_cat_24.ndjson"),
        "--drawing", "0", "--start", "0.2", "--out", fixture.directory + "/strokes.jsonl",
      ], output: CommandOutput(standardOutput: { _ in }, standardError: { _ in }))
    #expect(code == 0)
    try fixture.writeTrack("track.json", [(0, .identity), (20, .identity)])
    try fixture.write("scene.json", Self.scene(width: 160, height: 120, fps: 5, duration: 10))
    let scene = try ReplayScene.load(path: fixture.directory + "/scene.json", registry: .builtIn)
    _ = try Replay(scene: scene).run(ReplayOptions(outputDirectory: fixture.directory + "/out"))
    let lines = try fixture.jsonLines("trace.jsonl")
    let strokes = helper.viewPoints(drawing)
    for (s, stroke) in strokes.enumerated() {
      // The first frame where stroke s is complete.
      let line = try #require(
        lines.first { line in
          Self.trace(line).nodes.filter { $0["stroke"] as? Int == s }.count == stroke.count
        }, "stroke \(s) never completes")
      let (camera, k, nodes) = Self.trace(line)
      let cameraFromWorld = try #require(camera.inverse)
      let projected = try nodes.filter { $0["stroke"] as? Int == s }.map { node in
        let world = Matrix4(columnMajor: node["worldTransform"] as? [Double] ?? []).translation
        let (u, v) = try #require(k.project(cameraFromWorld.transformPoint(world)))
        return Vector2(u, v)
      }
      let fit = Self.similarityFit(from: stroke, to: projected)
      #expect(fit.rms < 1, "stroke \(s): RMS \(fit.rms) px")
      #expect(abs(fit.angle) < 1e-6, "stroke \(s) is rotated by \(fit.angle) rad")
      // 1.25 mm per point at 1 m: fx · 0.00125 pixels per helper point.
      #expect(fit.scale.isApproximatelyEqual(to: k.fx * 0.00125, absoluteTolerance: 1e-6))
    }
    // Every point of the drawing became a sphere (corrected mode).
    let last = Self.trace(try #require(lines.last))
    #expect(last.nodes.filter { $0["kind"] as? String == "sphere" }.count == drawing.pointCount)
  }

  @Test("after touch-start the root keeps its world position and turns to face the moving camera")
  func rootAnchoredInTrace() throws {
    let fixture = try ReplayFixture()
    defer { fixture.remove() }
    try fixture.write(
      "strokes.jsonl",
      "{\"t\":0,\"data\":\"touch-start\"}\n{\"t\":0,\"data\":\"[(0.0, 0.0), (10.0, 0.0), (20.0, 0.0)]\"}\n"
    )
    let end = RigidTransform(
      rotation: Quaternion(axis: .unitY, angleRadians: 0.6), translation: Vector3(0.8, 0.2, 0.3))
    try fixture.writeTrack("track.json", [(0, .identity), (2, end)])
    try fixture.write("scene.json", Self.scene(width: 64, height: 48, duration: 2))
    let scene = try ReplayScene.load(path: fixture.directory + "/scene.json", registry: .builtIn)
    _ = try Replay(scene: scene).run(ReplayOptions(outputDirectory: fixture.directory + "/out"))
    let lines = try fixture.jsonLines("trace.jsonl")
    #expect(lines.count == 21)
    for line in lines {
      let assist = line["remoteAssist"] as? [String: Any] ?? [:]
      let roots = assist["roots"] as? [[String: Any]] ?? []
      let root = Matrix4(columnMajor: try #require(roots.first?["worldTransform"] as? [Double]))
      #expect(
        root.translation.isApproximatelyEqual(to: Vector3(0, 0, -1), absoluteTolerance: 1e-12))
      let camera = Self.trace(line).camera.translation
      let toCamera = try #require((camera - root.translation).normalized)
      let front = try #require((-root.upperLeft3x3.columns.2).normalized)
      #expect(front.isApproximatelyEqual(to: toCamera, absoluteTolerance: 1e-9))
      #expect(abs(root.upperLeft3x3.columns.0.y) < 1e-12)  // gimbal lock: horizon level
    }
  }

  @Test("a frame range gives the same bytes, trace and events as the same frames of a full run")
  func frameRangeMatchesFullRun() throws {
    let fixture = try ReplayFixture()
    defer { fixture.remove() }
    let drawing = try QuickDrawDrawing.read(
      path: Fixtures.path("quickdraw/raw_cat_24.ndjson"), index: 0)
    try fixture.write(
      "strokes.jsonl", StrokeLog(messages: HelperSimulation().messages(for: drawing)).jsonLines)
    let end = RigidTransform(
      rotation: Quaternion(axis: Vector3(0.2, 1, 0), angleRadians: 0.3),
      translation: Vector3(0.3, 0, 0.2))
    try fixture.writeTrack("track.json", [(0, .identity), (4, end)])
    try fixture.write(
      "scene.json", Self.scene(mode: "faithful", width: 96, height: 72, fps: 15, duration: 3))
    let scene = try ReplayScene.load(path: fixture.directory + "/scene.json", registry: .builtIn)
    let full = fixture.directory + "/full"
    let part = fixture.directory + "/part"
    _ = try Replay(scene: scene).run(ReplayOptions(outputDirectory: full, threads: 1))
    let summary = try Replay(scene: scene).run(
      ReplayOptions(outputDirectory: part, frameRange: 30...33, threads: 2))
    #expect(summary.framesWritten == [30, 31, 32, 33])
    for frame in 30...33 {
      let name = String(format: "frame_%05d.png", frame)
      let a = try Data(contentsOf: URL(fileURLWithPath: full + "/" + name))
      let b = try Data(contentsOf: URL(fileURLWithPath: part + "/" + name))
      #expect(a == b, "\(name) differs")
    }
    #expect(!FileManager.default.fileExists(atPath: part + "/frame_00029.png"))
    let fullTrace = try String(contentsOfFile: full + "/trace.jsonl", encoding: .utf8).split(
      separator: "\n")
    let partTrace = try String(contentsOfFile: part + "/trace.jsonl", encoding: .utf8).split(
      separator: "\n")
    #expect(Array(fullTrace[30...33]) == partTrace)
    let fullEvents = try String(contentsOfFile: full + "/events.jsonl", encoding: .utf8)
      .split(separator: "\n").filter { [30, 31, 32, 33].contains(Self.frame(of: $0)) }
    let partEvents = try String(contentsOfFile: part + "/events.jsonl", encoding: .utf8).split(
      separator: "\n")
    #expect(fullEvents == partEvents)
    #expect(!partEvents.isEmpty)
    let run =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: part + "/run.json"))) as? [String: Any]
    #expect(run?["framesWritten"] as? [Int] == [30, 31, 32, 33])
  }

  static func frame(of line: Substring) -> Int {
    let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    return object?["frame"] as? Int ?? -1
  }

  @Test("frame schedule: 30 fps over 60 Hz ticks shows every second tick; 24 fps rounds down")
  func schedule() {
    let s = FrameSchedule(arFrameRate: 60, fps: 30, frameCount: 10)
    #expect((0..<5).map(s.tick(forFrame:)) == [0, 2, 4, 6, 8])
    let film = FrameSchedule(arFrameRate: 60, fps: 24, frameCount: 10)
    #expect((0..<6).map(film.tick(forFrame:)) == [0, 2, 5, 7, 10, 12])
  }
}
