import ARFormats
import ARMath
import ARRemoteAssist
import ARScene
import ARSession

/// Runs a session tick by tick with a fixed or scripted camera, solving constraints after each
/// tick as the frame loop does.
struct RemoteAssistHarness {
  let world = Node(name: "world")
  let pointOfView = Node(name: "pointOfView")
  var events: [Event] = []
  let session: RemoteAssistSession
  var tick = 0

  init(_ messages: [StrokeMessage], mode: RemoteAssistMode, pointsPerFrame: Int = 1) {
    session = RemoteAssistSession(
      messages: messages,
      configuration: RemoteAssistSession.Configuration(mode: mode, pointsPerFrame: pointsPerFrame))
    world.addChildNode(pointOfView)
  }

  /// Advances `count` ticks at 60 Hz with the camera at `pose` (default: origin, looking −Z).
  mutating func run(_ count: Int, pose: RigidTransform = .identity) {
    for _ in 0..<count {
      pointOfView.position = pose.translation
      pointOfView.orientation = pose.rotation
      let camera = Camera(intrinsics: .defaultCapture, worldFromCamera: pose)
      let t = Double(tick) / 60
      var context = TickContext(
        tick: tick, t: t, microseconds: Int64((t * 1e6).rounded()), camera: camera,
        pointOfView: pointOfView, root: world)
      session.update(&context)
      world.evaluateConstraints(pointOfView: pointOfView)
      events += context.events
      tick += 1
    }
  }

  /// Stroke spheres under the live roots, in creation order per root.
  var spheres: [Node] {
    session.roots.flatMap { $0.childNodes.filter { $0.geometry != nil } }
  }
}

/// `count` distinct points (i, −i) for i = 1…count as Darwin `[CGPoint]` batches of ≤ 10.
func batches(_ points: [Vector2], size: Int = 10) -> [String] {
  stride(from: 0, to: points.count, by: size).map {
    HelperSimulation.pointsText(Array(points[$0..<min(points.count, $0 + size)]))
  }
}
