import ARFormats
import ARMath
import ARRender
import ARScene
import ARSession
import ARSupport

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
  private(set) var camera: Camera
  /// The scene as sessions' camera history, boxed once rather than per tick.
  private let cameraHistory: any CameraHistory

  init(scene: ReplayScene) throws {
    self.scene = scene
    cameraHistory = scene
    world = scene.makeWorld()
    planeLifecycle = PlaneLifecycleEvents(timelines: scene.planes.map(\.timeline))
    camera = try scene.viewportCamera(at: 0)
    for (value, style) in [
      ("translucent", PlaneVisualization.Style.translucent), ("fade", .sampleApp),
    ] {
      let ids = Set(scene.planes.filter { $0.visualization == value }.map(\.anchor.identifier))
      if !ids.isEmpty { planeVisualizations.append((PlaneVisualization(style: style), ids)) }
    }
    let setup = SessionSetup(sceneFilePath: scene.sceneFilePath, sceneName: scene.name)
    sessions = try scene.sessions.map { try $0.configuration.makeSession(setup) }
  }

  /// Runs one AR tick: camera pose, sessions, constraints. Returns the tick's events.
  mutating func advance() throws -> [Event] {
    let tick = nextTick
    let t = scene.schedule.time(ofTick: tick)
    camera = try scene.viewportCamera(at: t)
    pointOfView.position = camera.worldFromCamera.translation
    pointOfView.orientation = camera.worldFromCamera.rotation
    var context = TickContext(
      tick: tick, t: t, microseconds: ReplayTime.microseconds(t), camera: camera,
      pointOfView: pointOfView, root: world)
    let planes = planeLifecycle.advance(to: t, context: &context)
    context.planes = planes
    context.estimatedFloorY = scene.estimatedFloorY
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
