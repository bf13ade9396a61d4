import ARDisplayer
import ARFormats
import ARMath
import ARScene
import ARSession
import ARSupport
import ARTestSupport
import Testing

@Suite struct DisplayerSessionTests {
  /// A 400×800 output camera, fx = 1000, fy = 500, principal point at the image centre, standing
  /// 1.5 m above the floor and yawed by `yaw` about +Y (0 = looking down −Z).
  static func camera(yaw: Double = 0) -> Camera {
    Camera(
      intrinsics: CameraIntrinsics(
        fx: 1000, fy: 500, cx: 199.5, cy: 399.5, width: 400, height: 800),
      worldFromCamera: RigidTransform(
        rotation: Quaternion(axis: .unitY, angleRadians: yaw), translation: Vector3(0, 1.5, 0)))
  }

  /// A floor plane anchor at y = 0, rotated by `yaw` about +Y.
  static func floor(yaw: Double = 0) -> PlaneAnchor {
    PlaneAnchor(
      identifier: "floor",
      worldFromAnchor: RigidTransform(
        rotation: Quaternion(axis: .unitY, angleRadians: yaw), translation: .zero),
      extent: Vector3(1, 0, 1))
  }

  /// The pixel 250 px below the centre: camera ray (0, −250/500, −1) = (0, −0.5, −1), which
  /// meets the floor 3 m ahead of a camera 1.5 m up.
  static let tap = (u: 199.5, v: 649.5)

  /// Runs `session` for AR ticks 0…`lastTick` at 60 Hz and returns the root and the events.
  static func run(
    _ session: DisplayerSession, ticks: ClosedRange<Int>, camera: Camera, root: Node = Node(),
    planes: [PlaneAnchor] = [floor()]
  ) -> (root: Node, events: [Event]) {
    var events: [Event] = []
    for k in ticks {
      let t = Double(k) / 60
      var context = TickContext(
        tick: k, t: t, microseconds: Int64((t * 1_000_000).rounded()), camera: camera,
        pointOfView: Node(), root: root, planes: planes)
      session.update(&context)
      events += context.events
    }
    return (root, events)
  }

  static func matrix(_ columns: [[Double]]) -> Matrix4 {
    Matrix4(columnMajor: columns.flatMap { $0 })
  }

  static func nodes(_ root: Node) throws -> (root: Node, slab: Node, screen: Node) {
    let placed = try #require(root.childNodes.first)
    let slab = try #require(placed.childNode(withName: "displayer", recursively: false))
    let screen = try #require(slab.childNode(withName: "screen", recursively: false))
    return (placed, slab, screen)
  }

  @Test("hitTransform on a floor 3 m ahead: root at the hit, screen 6.1 mm in front facing +Z")
  func hitTransformPlacement() throws {
    let session = try DisplayerSession(
      configuration: DisplayerConfiguration(taps: [DisplayerTap(t: 0, u: Self.tap.u, v: Self.tap.v)]
      ))
    let (root, events) = Self.run(session, ticks: 0...0, camera: Self.camera())
    let (placed, slab, screen) = try Self.nodes(root)
    #expect(
      placed.worldTransform.isApproximatelyEqual(
        to: Self.matrix([
          [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, -3, 1],
        ]), absoluteTolerance: 1e-12))
    #expect(
      slab.worldTransform.isApproximatelyEqual(
        to: Self.matrix([
          [0.225, 0, 0, 0], [0, 0.4, 0, 0], [0, 0, 0.01, 0], [0, 0.16, -2.9999, 1],
        ]), absoluteTolerance: 1e-12))
    // Screen: slab · T(0, 0, 0.6) · S(1, 1, 10): z offset 0.01 · 0.6 = 0.006, z scale 0.1.
    #expect(
      screen.worldTransform.isApproximatelyEqual(
        to: Self.matrix([
          [0.225, 0, 0, 0], [0, 0.4, 0, 0], [0, 0, 0.1, 0], [0, 0.16, -2.9939, 1],
        ]), absoluteTolerance: 1e-12))
    #expect(screen.geometry?.material.lightingModel == .constant)
    #expect(screen.geometry?.material.diffuse == DisplayerModel.screenCyan)
    #expect(screen.geometry?.material.isDoubleSided == false)
    #expect(slab.geometry?.shape == .box(Box(width: 1, height: 1, length: 1)))
    #expect(screen.geometry?.shape == .plane(Plane(width: 1, height: 1)))
    let placedEvent = try #require(events.first)
    #expect(placedEvent.name == "displayer-placed")
    #expect(placedEvent.json(frame: 0).text.contains("\"position\":[0.0,0.0,-3.0]"))
    // Distance from the camera (0, 1.5, 0) to (0, 0, −3): √(1.5² + 3²) = 3.354102.
    let distanceField = placedEvent.fields.first { $0.0 == "distance" }?.1
    guard case .number(let distance) = distanceField else {
      Issue.record("no distance field")
      return
    }
    #expect(distance.isApproximatelyEqual(to: 3.354102, absoluteTolerance: 1e-6))
  }

  @Test("hitTransform keeps the anchor's rotation: an anchor yawed 90° turns the screen to +X")
  func hitTransformAnchorRotation() throws {
    let session = try DisplayerSession(
      configuration: DisplayerConfiguration(taps: [DisplayerTap(t: 0, u: Self.tap.u, v: Self.tap.v)]
      ))
    let (root, _) = Self.run(
      session, ticks: 0...0, camera: Self.camera(), planes: [Self.floor(yaw: .pi / 2)])
    let (_, _, screen) = try Self.nodes(root)
    // Ry(90°): x → −z, z → +x. Screen centre = (0, 0, −3) + Ry·(0, 0.16, 0.0061).
    #expect(
      screen.worldTransform.isApproximatelyEqual(
        to: Self.matrix([
          [0, 0, -0.225, 0], [0, 0.4, 0, 0], [0.1, 0, 0, 0], [0.0061, 0.16, -3, 1],
        ]), absoluteTolerance: 1e-12))
  }

  @Test("faceCamera yaws the screen to the camera heading; hitTransform does not")
  func faceCamera() throws {
    let taps = [DisplayerTap(t: 0, u: Self.tap.u, v: Self.tap.v)]
    // Camera yawed +90°: looks down −X; the floor hit is (−3, 0, 0); heading yaw = π/2.
    let facing = try DisplayerSession(
      configuration: DisplayerConfiguration(taps: taps, orientation: .faceCamera))
    let (root, _) = Self.run(facing, ticks: 0...0, camera: Self.camera(yaw: .pi / 2))
    let (placed, slab, screen) = try Self.nodes(root)
    #expect(
      placed.worldTransform.isApproximatelyEqual(
        to: Self.matrix([
          [0, 0, -1, 0], [0, 1, 0, 0], [1, 0, 0, 0], [-3, 0, 0, 1],
        ]), absoluteTolerance: 1e-12))
    #expect(
      slab.worldTransform.isApproximatelyEqual(
        to: Self.matrix([
          [0, 0, -0.225, 0], [0, 0.4, 0, 0], [0.01, 0, 0, 0], [-2.9999, 0.16, 0, 1],
        ]), absoluteTolerance: 1e-12))
    // The screen's +Z is world +X: back toward the camera at the origin.
    #expect(
      screen.worldTransform.isApproximatelyEqual(
        to: Self.matrix([
          [0, 0, -0.225, 0], [0, 0.4, 0, 0], [0.1, 0, 0, 0], [-2.9939, 0.16, 0, 1],
        ]), absoluteTolerance: 1e-12))

    let original = try DisplayerSession(configuration: DisplayerConfiguration(taps: taps))
    let (root2, _) = Self.run(original, ticks: 0...0, camera: Self.camera(yaw: .pi / 2))
    let (_, _, screen2) = try Self.nodes(root2)
    #expect(
      screen2.worldTransform.isApproximatelyEqual(
        to: Self.matrix([
          [0.225, 0, 0, 0], [0, 0.4, 0, 0], [0, 0, 0.1, 0], [-3, 0.16, 0.0061, 1],
        ]), absoluteTolerance: 1e-12))
  }

  @Test("a tap above the horizon misses: an event, no node")
  func miss() throws {
    let session = try DisplayerSession(
      configuration: DisplayerConfiguration(taps: [DisplayerTap(t: 0, u: 199.5, v: 0)]))
    let (root, events) = Self.run(session, ticks: 0...0, camera: Self.camera())
    #expect(root.childNodes.isEmpty)
    #expect(events.map(\.name) == ["displayer-miss"])
    #expect(session.screens.isEmpty)
  }

  @Test(
    "a tap outside the view is a warning and places nothing; the view's edges are inside",
    arguments: [(5000.0, -300.0), (400.0, 400.0), (-0.51, 400.0), (199.5, 799.6)])
  func outsideView(u: Double, v: Double) throws {
    // (5000, −300) would place a screen far away on the infinite floor plane.
    let session = try DisplayerSession(
      configuration: DisplayerConfiguration(taps: [DisplayerTap(t: 0, u: u, v: v)]))
    let (root, events) = Self.run(session, ticks: 0...0, camera: Self.camera())
    #expect(root.childNodes.isEmpty)
    #expect(events.map(\.name) == ["warning"])
    let reason = events.first?.fields.first { $0.0 == "reason" }?.1.text ?? ""
    #expect(reason.contains("outside the 400×800 view"), "\(reason)")
  }

  @Test("a tap on the view's last pixel row still hit-tests")
  func edgeTap() throws {
    let session = try DisplayerSession(
      configuration: DisplayerConfiguration(taps: [DisplayerTap(t: 0, u: 399.5, v: 799.5)]))
    let (root, events) = Self.run(session, ticks: 0...0, camera: Self.camera())
    #expect(events.map(\.name) == ["displayer-placed"])
    #expect(root.childNodes.count == 1)
  }

  @Test("a tap is handled at the first tick with τ ≥ its time")
  func tapTiming() throws {
    let session = try DisplayerSession(
      configuration: DisplayerConfiguration(taps: [
        DisplayerTap(t: 0.1, u: Self.tap.u, v: Self.tap.v)
      ]))
    let (_, before) = Self.run(session, ticks: 0...5, camera: Self.camera())
    #expect(before.isEmpty)
    let (_, at) = Self.run(session, ticks: 6...6, camera: Self.camera())
    #expect(at.map(\.tick) == [6])
  }

  @Test("taps listed out of time order are handled in time order")
  func tapsOutOfOrder() throws {
    // Listed: a miss at 0.5 s (above the horizon), then a hit at 0.1 s.
    let session = try DisplayerSession(
      configuration: DisplayerConfiguration(taps: [
        DisplayerTap(t: 0.5, u: 199.5, v: 0), DisplayerTap(t: 0.1, u: Self.tap.u, v: Self.tap.v),
      ]))
    let (root, early) = Self.run(session, ticks: 0...6, camera: Self.camera())
    // The 0.1 s tap places its displayer at tick 6, before the 0.5 s one is due.
    #expect(early.map(\.tick) == [6])
    #expect(root.childNodes.count == 1)
    let (_, late) = Self.run(session, ticks: 7...30, camera: Self.camera(), root: root)
    #expect(late.map(\.tick) == [30])
    #expect(root.childNodes.count == 1)
  }

  // MARK: Video

  let fixture = Fixtures.path("video/rav1e_small_input_64x64.y4m")

  func expectedTexture(frame: Int) throws -> Texture {
    let reader = try Y4MReader(path: fixture)
    let f = try #require(try reader.frame(at: frame))
    return YCbCrConversion(range: .limited).texture(from: f)
  }

  @Test(
    "the screen shows frame ⌊τ · 25⌋ of a video present from τ = 0, then holds or loops",
    arguments: [VideoEndBehavior.hold, .loop])
  func videoFrames(end: VideoEndBehavior) throws {
    let session = try DisplayerSession(
      configuration: DisplayerConfiguration(
        taps: [DisplayerTap(t: 0.1, u: Self.tap.u, v: Self.tap.v)],
        videos: [DisplayerVideo(path: fixture)], end: end))
    let camera = Self.camera()
    let root = Node()
    // Tick 6 (τ = 0.1): placed, the waiting video assigned, frame ⌊0.1 · 25⌋ = 2.
    let (_, events) = Self.run(session, ticks: 0...6, camera: camera, root: root)
    #expect(events.map(\.name) == ["displayer-placed", "displayer-video-assigned"])
    let (_, _, screen) = try Self.nodes(root)
    #expect(session.screens[0].frameIndex == 2)
    #expect(screen.geometry?.material.diffuseTexture == (try expectedTexture(frame: 2)))
    #expect(screen.geometry?.material.diffuse == .white)
    // Tick 11 (τ = 0.18333): frame 4.
    _ = Self.run(session, ticks: 7...11, camera: camera, root: root)
    #expect(session.screens[0].frameIndex == 4)
    // Tick 12 (τ = 0.2): raw frame 5 → hold 4, loop 0.
    _ = Self.run(session, ticks: 12...12, camera: camera, root: root)
    let expected = end == .hold ? 4 : 0
    #expect(session.screens[0].frameIndex == expected)
    #expect(screen.geometry?.material.diffuseTexture == (try expectedTexture(frame: expected)))
    let trace = JSONValue.object(session.traceFields()).text
    #expect(trace.contains("\"frame\":\(expected)"))
    #expect(trace.contains("\"video\":\"\(fixture)\""))
  }

  @Test("videos take screens in start order; video time counts from the video's start")
  func assignmentOrder() throws {
    let session = try DisplayerSession(
      configuration: DisplayerConfiguration(
        taps: [
          DisplayerTap(t: 0, u: Self.tap.u, v: Self.tap.v),
          DisplayerTap(t: 0, u: Self.tap.u + 100, v: Self.tap.v),
        ],
        videos: [
          DisplayerVideo(path: fixture, start: 0.5), DisplayerVideo(path: fixture, start: 0.2),
        ]
      ))
    // Tick 36 (τ = 0.6): video 1 (started 0.2) on screen 0 at ⌊0.4 · 25⌋ = 10 → held 4;
    // video 0 (started 0.5) on screen 1 at ⌊0.1 · 25⌋ = 2.
    _ = Self.run(session, ticks: 0...36, camera: Self.camera())
    #expect(session.screens.map(\.videoIndex) == [1, 0])
    #expect(session.screens.map(\.frameIndex) == [4, 2])
  }

  @Test("drop mode: a video starting before any screen exists is never shown")
  func dropMode() throws {
    let session = try DisplayerSession(
      configuration: DisplayerConfiguration(
        taps: [DisplayerTap(t: 0.1, u: Self.tap.u, v: Self.tap.v)],
        videos: [DisplayerVideo(path: fixture)], waitingVideo: .drop))
    let root = Node()
    let (_, events) = Self.run(session, ticks: 0...12, camera: Self.camera(), root: root)
    #expect(events.map(\.name) == ["displayer-video-dropped", "displayer-placed"])
    let (_, _, screen) = try Self.nodes(root)
    #expect(screen.geometry?.material.diffuseTexture == nil)
    #expect(screen.geometry?.material.diffuse == DisplayerModel.screenCyan)
  }

  @Test("a tap before τ = 0 is refused (65) naming displayers.taps[N].t, as other action times")
  func negativeTap() {
    let folder = TemporaryFolder("displayer-tap")
    defer { folder.remove() }
    let track = Fixtures.path("tracks/tum_fr1_xyz_groundtruth.txt")
    let scene = folder.write(
      #"{"name": "t", "track": {"path": "\#(track)"}, "output": {"width": 64, "height": 48}, "#
        + #""duration": 0.3, "displayers": {"taps": [{"t": 0.1, "u": 1, "v": 1}, "#
        + #"{"t": -1, "u": 1, "v": 1}]}}"#, to: "scene.json")
    let (code, output) = runCommand(["render", scene, "--out", folder.file("out")])
    #expect(code == 65, "\(output.standardError)")
    #expect(
      output.standardError.contains("field 'displayers.taps[1].t'"), "\(output.standardError)")
    #expect(output.standardError.contains("must be ≥ 0 s"))
  }

  @Test("a bad video or a non-finite tap time fails at creation with its location")
  func creationErrors() throws {
    let truncated = TemporaryFolder("video").write(
      Array("YUV4MPEG2 W2 H2 F1:1\nFRAME\n".utf8) + [1, 2], to: "truncated.y4m")
    #expect(throws: Y4MError.self) {
      try DisplayerSession(
        configuration: DisplayerConfiguration(taps: [], videos: [DisplayerVideo(path: truncated)]))
    }
    let headerOnly = TemporaryFolder("video").write(
      Array("YUV4MPEG2 W2 H2 F1:1\n".utf8), to: "empty.y4m")
    #expect(
      throws: InputError(
        .badData, InputLocation(file: headerOnly), "the YUV4MPEG2 video has no frames")
    ) {
      try DisplayerSession(
        configuration: DisplayerConfiguration(taps: [], videos: [DisplayerVideo(path: headerOnly)]))
    }
    do {
      _ = try DisplayerSession(
        configuration: DisplayerConfiguration(taps: [DisplayerTap(t: .nan, u: 0, v: 0)]),
        sceneFile: "s.json")
      Issue.record("expected an error")
    } catch let error as InputError {
      #expect(error.location == InputLocation(file: "s.json", field: "displayers.taps[0].t"))
    }
  }
}
