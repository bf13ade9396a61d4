import AREnvironment
import ARFormats
import ARMath
import ARRender
import ARScene
import ARSession
import ARSupport
import ARTracking

/// The mutable scene state of a run: the node graph, sessions and the AR tick counter.
struct ReplayState {
  let scene: ReplayScene
  let world: Node
  let pointOfView = Node(name: "pointOfView")
  var sessions: [Session] = []
  /// Plane drawings, each limited to the anchors that asked for its style.
  var planeVisualizations: [(session: PlaneVisualization, identifiers: Set<String>)] = []
  /// The anchors' lifecycle (which are present, in which state) and its events.
  private var planeLifecycle: PlaneLifecycleEvents
  private(set) var nextTick = 0
  /// The camera the apps see (the tracker's estimate; the track's without a `tracking`
  /// section): app content is rendered from it.
  private(set) var camera: Camera
  /// The true camera of the shown frame: the world (camera image, environment) is seen from it.
  private(set) var trueCamera: Camera
  /// The tracker (Documentation/Tracking.md), asked once per tick.
  let tracking: TrackingSimulation
  /// The state of the latest tick, for the HUD.
  private var trackingState: TrackingState?
  /// The scene as sessions' camera history, boxed once rather than per tick.
  private let cameraHistory: any CameraHistory
  /// Whether each tick finds the environment's feature points in view (for hit-tests and
  /// `--debug feature-points`): with plane detection, or when asked.
  var keepsFeaturePoints: Bool
  /// The environment's feature points the latest tick's frame sees, in the apps' (estimated)
  /// world, plus the scene's `pointCloud`; empty unless `keepsFeaturePoints`.
  private(set) var featurePointsInView: [Vector3] = []

  init(scene: ReplayScene) throws {
    self.scene = scene
    let lastTime = scene.schedule.time(ofFrame: scene.schedule.frameCount - 1)
    tracking = TrackingSimulation(
      configuration: scene.tracking, arFrameRate: scene.schedule.arFrameRate, lastTime: lastTime)
    cameraHistory =
      scene.tracking.isActive ? EstimatedCameraHistory(scene: scene, tracking: tracking) : scene
    world = scene.makeWorld()
    planeLifecycle = PlaneLifecycleEvents(timelines: scene.planes.map(\.timeline))
    camera = try scene.viewportCamera(at: 0)
    trueCamera = camera
    keepsFeaturePoints = !(scene.environment?.planeDetection.isEmpty ?? true)
    for (value, style) in [
      ("translucent", PlaneVisualization.Style.translucent), ("fade", .sampleApp),
    ] {
      let ids = Set(scene.planes.filter { $0.visualization == value }.map(\.anchor.identifier))
      if !ids.isEmpty { planeVisualizations.append((PlaneVisualization(style: style), ids)) }
    }
    let setup = SessionSetup(sceneFilePath: scene.sceneFilePath, sceneName: scene.name)
    sessions = try scene.sessions.map { try $0.configuration.makeSession(setup) }
  }

  /// The true camera for the trace line (`worldFromCameraTrue`), only with a `tracking`
  /// section.
  var traceTrueCamera: Camera? { tracking.configuration.isActive ? trueCamera : nil }

  /// What ARKit's coaching overlay would say about the state (`--hud`, with a `tracking`
  /// section, while tracking is not normal): a label centred on the image.
  var trackingOverlayText: [OverlayText] {
    guard tracking.configuration.isActive, let text = trackingState?.coachingText else {
      return []
    }
    let k = camera.intrinsics
    return [
      OverlayText(
        source: "tracking", lines: [text],
        placement: .point(u: Double(k.width - 1) / 2, v: Double(k.height - 1) / 2))
    ]
  }

  /// Runs one AR tick: camera pose, sessions, constraints. Returns the tick's events.
  mutating func advance() throws -> [Event] {
    let tick = nextTick
    let t = scene.schedule.time(ofTick: tick)
    let scene = self.scene
    let tracked = try tracking.advance(
      tick: tick, t: t, trueCamera: { try scene.viewportCamera(at: $0) },
      featurePointsInView: { camera in
        FeaturePointsInView.count(scene.pointCloud, camera: camera)
          + (scene.featurePoints?.inView(of: camera).count ?? 0)
      })
    camera = tracked.camera
    trueCamera = tracked.trueCamera
    if keepsFeaturePoints, let points = scene.featurePoints {
      // Seen by the true camera, placed where the estimate puts them (ARKit's points are in
      // its world).
      let estimatedFromTrue = camera.worldFromCamera * trueCamera.worldFromCamera.inverse
      let seen = points.inView(of: trueCamera)
      featurePointsInView =
        scene.pointCloud
        + (tracking.configuration.isActive
          ? seen.map { estimatedFromTrue.transformPoint($0) } : seen)
    }
    trackingState = tracked.state
    pointOfView.position = camera.worldFromCamera.translation
    pointOfView.orientation = camera.worldFromCamera.rotation
    var context = TickContext(
      tick: tick, t: t, microseconds: ReplayTime.microseconds(t), camera: camera,
      pointOfView: pointOfView, root: world)
    context.trackingState = tracked.state
    for event in tracked.events { context.emit(event.name, event.fields) }
    let planes = planeLifecycle.advance(to: t, context: &context)
    context.planes = planes
    context.estimatedFloorY = scene.estimatedFloorY
    context.featurePoints = featurePointsInView
    context.cameraHistory = cameraHistory
    for (visualization, identifiers) in planeVisualizations {
      var filtered = context
      filtered.planes = planes.filter { identifiers.contains($0.identifier) }
      filtered.events = []
      visualization.update(&filtered)
      context.events += filtered.events
    }
    for session in sessions { session.update(&context) }
    world.evaluateConstraints(pointOfView: pointOfView)
    nextTick += 1
    return context.events
  }
}

/// Sessions sample the scene's camera track at other moments (the helper's delayed video).
extension ReplayScene: CameraHistory {}

/// With a tracker, what the apps had at another moment is the estimate then.
private struct EstimatedCameraHistory: CameraHistory, @unchecked Sendable {
  let scene: ReplayScene
  /// Read only between ticks, on the scene thread that advances it.
  let tracking: TrackingSimulation

  func viewportCamera(at t: Double) throws -> Camera {
    tracking.estimatedCamera(at: t, trueCamera: try scene.viewportCamera(at: t))
  }
}
