import ARFormats
import ARMath
import ARRemoteAssist
import ARScene
import ARSession
import Testing

/// A camera track as a function of τ: the viewport camera walks and turns while the helper
/// draws, so the frames the helper saw (τ_seen), the touch-start frame and the pop frames all
/// differ.
private struct MovingCamera: CameraHistory {
  var intrinsics: CameraIntrinsics
  /// The pitch at τ = 0 (radians; negative looks down).
  var pitch = -0.45

  func pose(at t: Double) -> RigidTransform {
    RigidTransform(
      rotation: Quaternion(axis: .unitY, angleRadians: 0.25 * t)
        * Quaternion(axis: .unitX, angleRadians: pitch - 0.1 * t),
      translation: Vector3(0.15 * t, 1.4 - 0.05 * t, -0.1 * t))
  }

  func viewportCamera(at t: Double) throws -> Camera {
    Camera(intrinsics: intrinsics, worldFromCamera: pose(at: t))
  }
}

/// Runs a remote-assist session tick by tick at 60 Hz against `MovingCamera`, as the frame loop
/// does (session, then constraints), and records where each sphere was right after the tick
/// that made it.
private struct Rig {
  let world = Node(name: "world")
  let pointOfView = Node(name: "pointOfView")
  let cameras: MovingCamera
  let session: RemoteAssistSession
  var planes: [PlaneAnchor] = []
  var events: [Event] = []
  /// Each sphere's world centre after the tick it appeared in, by sphere name.
  var placed: [String: Vector3] = [:]
  var tick = 0

  init(
    _ messages: [StrokeMessage], mode: RemoteAssistMode, helper: HelperScreen,
    intrinsics: CameraIntrinsics, pointsPerFrame: Int = 3, pitch: Double = -0.45
  ) {
    var configuration = RemoteAssistSession.Configuration(
      mode: mode, pointsPerFrame: pointsPerFrame)
    configuration.helper = helper
    let latency = helper.dataLatency
    session = RemoteAssistSession(
      source: MessageList(messages) { Int64((($0.t + latency) * 1e6).rounded()) },
      configuration: configuration)
    cameras = MovingCamera(intrinsics: intrinsics, pitch: pitch)
    world.addChildNode(pointOfView)
  }

  var spheres: [Node] {
    var out: [Node] = []
    world.enumerateHierarchy { if $0.strokePoint != nil { out.append($0) } }
    return out
  }

  /// Advances `count` ticks; `check` runs after each tick's constraints.
  mutating func run(_ count: Int, check: (Rig) -> Void = { _ in }) throws {
    for _ in 0..<count {
      let t = Double(tick) / 60
      let camera = try cameras.viewportCamera(at: t)
      pointOfView.position = camera.worldFromCamera.translation
      pointOfView.orientation = camera.worldFromCamera.rotation
      var context = TickContext(
        tick: tick, t: t, microseconds: Int64((t * 1e6).rounded()), camera: camera,
        pointOfView: pointOfView, root: world, planes: planes)
      context.cameraHistory = cameras
      session.update(&context)
      world.evaluateConstraints(pointOfView: pointOfView)
      events += context.events
      for sphere in spheres where placed[sphere.name ?? ""] == nil {
        placed[sphere.name ?? ""] = sphere.worldTransform.translation
      }
      check(self)
      tick += 1
    }
  }
}

/// The 5 × 7 grid across the helper's view, edges included (points from the centre, y down).
private func grid(_ helper: HelperScreen) -> [Vector2] {
  (0..<7).flatMap { row in
    (0..<5).map { column in
      Vector2(
        helper.width * (Double(column) / 4 - 0.5), helper.height * (Double(row) / 6 - 0.5))
    }
  }
}

/// touch-start at 0.05 s, then the grid in batches of 10 from 0.2 s, every 0.25 s.
private func gridMessages(_ points: [Vector2]) -> [StrokeMessage] {
  var messages = [StrokeMessage(t: 0.05, text: "touch-start", line: 1)]
  for (i, start) in stride(from: 0, to: points.count, by: 10).enumerated() {
    let batch = Array(points[start..<min(points.count, start + 10)])
    messages.append(
      StrokeMessage(
        t: 0.2 + 0.25 * Double(i), text: HelperSimulation.pointsText(batch), line: i + 2))
  }
  return messages
}

/// The pixel a helper point touches, by hand: s = points per pixel (fill: the larger ratio),
/// u = x/s + (W − 1)/2, v = y/s + (H − 1)/2.
private func touched(_ p: Vector2, helper: HelperScreen, width: Int, height: Int) -> (
  u: Double, v: Double
) {
  let sx = helper.width / Double(width)
  let sy = helper.height / Double(height)
  let s = helper.contentMode == .aspectFill ? max(sx, sy) : min(sx, sy)
  return (p.x / s + Double(width - 1) / 2, p.y / s + Double(height - 1) / 2)
}

private let portrait = CameraIntrinsics.defaultCapture.output(
  viewport: .portrait, width: 360, height: 640)
private let landscape = CameraIntrinsics.defaultCapture.output(
  viewport: .landscape, width: 640, height: 480)

@Suite struct HelperScreenModeTests {
  /// Worst distance (px) between each sphere's centre, projected through the camera of the
  /// frame its helper saw, and the pixel touched.
  private func worstOffset(
    mode: RemoteAssistMode, helper: HelperScreen, intrinsics: CameraIntrinsics
  ) throws -> Double {
    let points = grid(helper)
    let messages = gridMessages(points)
    var rig = Rig(messages, mode: mode, helper: helper, intrinsics: intrinsics)
    try rig.run(150)
    let spheres = rig.spheres
    #expect(spheres.count == (mode == .faithful ? 35 - 8 : 35))
    var worst = 0.0
    for sphere in spheres {
      let origin = try #require(sphere.strokePoint)
      let message = messages[origin.messageLine - 1]
      let point = points[(origin.messageLine - 2) * 10 + origin.pointIndex]
      let pixel = touched(point, helper: helper, width: intrinsics.width, height: intrinsics.height)
      // Point i of an n-point batch was drawn (n − 1 − i)/60 s before the batch was sent.
      let n = min(10, points.count - (origin.messageLine - 2) * 10)
      let drawn = message.t - Double(n - 1 - origin.pointIndex) / 60
      let seen = try rig.cameras.viewportCamera(at: drawn - helper.videoLatency)
      let centre = try #require(rig.placed[sphere.name ?? ""])
      let projected = try #require(seen.project(world: centre))
      worst = max(
        worst,
        ((projected.u - pixel.u) * (projected.u - pixel.u) + (projected.v - pixel.v)
          * (projected.v - pixel.v))
          .squareRoot())
    }
    return worst
  }

  @Test(
    "screen: each centre projects within 0.5 px of the touched pixel through the τ_seen camera",
    arguments: [
      (
        "portrait video, portrait helper", portrait,
        HelperScreen(videoLatency: 0.15, dataLatency: 0.08)
      ),
      (
        "landscape video, landscape helper", landscape,
        HelperScreen(width: 844, height: 390, videoLatency: 0.15, dataLatency: 0.08)
      ),
      (
        "portrait video, landscape helper", portrait,
        HelperScreen(width: 844, height: 390, videoLatency: 0.3)
      ),
    ])
  func screenGrid(_ name: String, _ intrinsics: CameraIntrinsics, _ helper: HelperScreen) throws {
    let worst = try worstOffset(mode: .screen, helper: helper, intrinsics: intrinsics)
    #expect(worst < 0.5, "\(name): \(worst) px")
    #expect(worst < 1e-6, "\(name): exact up to rounding, \(worst) px")
  }

  @Test("faithful placement misses the touched pixels by far (the check can fail)")
  func faithfulMisses() throws {
    let worst = try worstOffset(
      mode: .faithful, helper: HelperScreen(videoLatency: 0.15, dataLatency: 0.08),
      intrinsics: portrait)
    #expect(worst > 20, "\(worst) px")
  }

  private var desk: PlaneAnchor {
    PlaneAnchor(
      identifier: "desk",
      worldFromAnchor: RigidTransform(
        rotation: Quaternion(axis: .unitZ, angleRadians: 0.05), translation: Vector3(0.2, 0.7, -0.9)
      ),
      extent: Vector3(3, 0, 3))
  }

  /// A 20 × 20 m desk: a camera looking 63° down sees it with every grid ray.
  private var wideDesk: PlaneAnchor {
    var wide = desk
    wide.extent = Vector3(20, 0, 20)
    return wide
  }

  @Test(
    "surface: centres on the touched pixels' rays, at the radius from the desk in every later tick; world-anchored when the desk moves and vanishes",
    arguments: [
      (
        "portrait video, portrait helper", portrait,
        HelperScreen(videoLatency: 0.15, dataLatency: 0.08)
      ),
      (
        "landscape video, landscape helper", landscape,
        HelperScreen(width: 844, height: 390, videoLatency: 0.15, dataLatency: 0.08)
      ),
    ])
  func surfaceGrid(_ name: String, _ intrinsics: CameraIntrinsics, _ helper: HelperScreen) throws {
    let points = grid(helper)
    let messages = gridMessages(points)
    var rig = Rig(messages, mode: .surface, helper: helper, intrinsics: intrinsics, pitch: -1.1)
    let plane = wideDesk
    rig.planes = [plane]
    var checkedTicks = 0
    try rig.run(120) { rig in
      for sphere in rig.spheres {
        let centre = sphere.worldTransform.translation
        #expect(abs(SphereContact.height(of: centre, above: plane) - 0.01875) < 1e-6)
        #expect(centre == rig.placed[sphere.name ?? ""])
      }
      checkedTicks += 1
    }
    #expect(checkedTicks == 120)
    let spheres = rig.spheres
    #expect(spheres.count == points.count)
    for sphere in spheres {
      let origin = try #require(sphere.strokePoint)
      #expect(origin.planeAnchor == "desk")
      #expect(origin.hitType == .existingPlaneUsingGeometry)
      #expect(abs(sphere.worldTransform.upperLeft3x3.columns.0.length - 1) < 1e-12)
      let point = points[(origin.messageLine - 2) * 10 + origin.pointIndex]
      let pixel = touched(
        point, helper: helper, width: intrinsics.width, height: intrinsics.height)
      let n = min(10, points.count - (origin.messageLine - 2) * 10)
      let drawn = messages[origin.messageLine - 1].t - Double(n - 1 - origin.pointIndex) / 60
      let seen = try rig.cameras.viewportCamera(at: drawn - 0.15)
      let projected = try #require(seen.project(world: sphere.worldTransform.translation))
      #expect(abs(projected.u - pixel.u) < 1e-6 && abs(projected.v - pixel.v) < 1e-6, "\(name)")
    }
    // The desk is re-estimated 5 cm higher, then removed: the spheres stay where they were.
    let before = spheres.map(\.worldTransform)
    var raised = plane
    raised.worldFromAnchor.translation.y += 0.05
    rig.planes = [raised]
    try rig.run(30)
    rig.planes = []
    try rig.run(30)
    #expect(rig.spheres.map(\.worldTransform) == before)
  }

  @Test(
    "surface: a point whose ray hits no plane lands on the screen sheet with a surface-miss event")
  func surfaceMiss() throws {
    let helper = HelperScreen(width: 844, height: 390)
    let messages = [
      StrokeMessage(t: 0, text: "touch-start", line: 1),
      StrokeMessage(t: 0.1, text: "[(0.0, -190.0), (0.0, 190.0)]", line: 2),
    ]
    var rig = Rig(messages, mode: .surface, helper: helper, intrinsics: landscape)
    rig.planes = [desk]
    try rig.run(20)
    let misses = rig.events.filter { $0.name == "surface-miss" }
    #expect(misses.count == 1)
    let spheres = rig.spheres
    #expect(spheres.count == 2)
    let top = try #require(spheres.first { $0.strokePoint?.pointIndex == 0 })
    #expect(top.strokePoint?.hitType == nil && top.strokePoint?.planeAnchor == nil)
    // Still on the touched pixel of the frame seen (screen placement).
    let seen = try rig.cameras.viewportCamera(at: 0.1 - 1.0 / 60)  // first of two points
    let pixel = touched(Vector2(0, -190), helper: helper, width: 640, height: 480)
    let topCentre = try #require(rig.placed[top.name ?? ""])
    let projected = try #require(seen.project(world: topCentre))
    #expect(abs(projected.u - pixel.u) < 1e-6 && abs(projected.v - pixel.v) < 1e-6)
    #expect(spheres.first { $0.strokePoint?.pointIndex == 1 }?.strokePoint?.planeAnchor == "desk")
  }

  @Test("aspect fit: touches on the letterbox bars are ignored with a dropped-point event")
  func letterbox() throws {
    // A 640×480 landscape video fitted to a portrait 390×844 view: s = 390/640, the video is
    // 292.5 points tall, so |y| > 146.25 is a bar.
    let helper = HelperScreen(width: 390, height: 844, contentMode: .aspectFit)
    let messages = [
      StrokeMessage(t: 0, text: "touch-start", line: 1),
      StrokeMessage(t: 0.1, text: "[(0.0, 146.0), (0.0, 147.0), (10.0, -300.0)]", line: 2),
    ]
    var rig = Rig(messages, mode: .screen, helper: helper, intrinsics: landscape)
    try rig.run(10)
    let dropped = rig.events.filter { $0.name == "dropped-point" }
    #expect(dropped.count == 2)
    #expect(dropped.allSatisfy { $0.json(frame: 0).text.contains("letterbox") })
    #expect(rig.spheres.map { $0.strokePoint?.pointIndex } == [0])
  }

  @Test("every mode names the log line and point index of each sphere (faithful: 1…8 of 10)")
  func origins() throws {
    let points = (0..<10).map { Vector2(Double($0), -Double($0)) }
    let messages = [
      StrokeMessage(t: 0, text: "touch-start", line: 3),
      StrokeMessage(t: 0, text: HelperSimulation.pointsText(points), line: 7),
    ]
    for (mode, expected) in [(RemoteAssistMode.faithful, Array(1...8)), (.corrected, Array(0...9))]
    {
      var rig = Rig(messages, mode: mode, helper: HelperScreen(), intrinsics: portrait)
      try rig.run(10)
      #expect(rig.spheres.map { $0.strokePoint?.pointIndex } == expected)
      #expect(rig.spheres.allSatisfy { $0.strokePoint?.messageLine == 7 })
    }
  }
}
