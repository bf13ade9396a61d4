import ARFormats
import ARMath
import ARScene
import ARSupport
@_exported import ARTracking

/// What a session sees and may change during one AR tick (DESIGN §1).
public struct TickContext {
  /// The AR tick index k (0-based).
  public var tick: Int
  /// Replay time τ = k / arFrameRate, seconds.
  public var t: Double
  /// τ in integer microseconds (rounded), for throttles that must not depend on rounding.
  public var microseconds: Int64
  /// The viewport camera of this tick (output intrinsics, `worldFromCamera` already rolled for
  /// portrait, as ARSCNView's `pointOfView`).
  public var camera: Camera
  /// The node carrying `camera`'s pose (look-at constraints target it).
  public var pointOfView: Node
  /// The scene's root node: sessions add their nodes under it.
  public var root: Node
  /// Plane anchors present at this tick (hit-testing).
  public var planes: [PlaneAnchor]
  /// World y (metres) of the horizontal plane `estimatedHorizontalPlane` hit tests find; `nil`
  /// = none (the scene's `estimatedFloorY`).
  public var estimatedFloorY: Double?
  /// Feature points of this frame (world metres; ARKit's `rawFeaturePoints`): what
  /// `featurePoint` hit-tests search. The environment's points in view when the frame loop
  /// keeps them (Documentation/Environments.md, "Feature points"), else empty.
  public var featurePoints: [Vector3] = []
  /// The viewport camera at other moments (`viewportCamera(at:)`); `nil` when the caller has no
  /// camera track (then only this tick's camera is known).
  public var cameraHistory: (any CameraHistory)?
  /// ARKit's tracking state at this tick (`ARFrame.camera.trackingState`, as apps learn it
  /// from `session(_:cameraDidChangeTrackingState:)`): the scene's tracking timeline
  /// (Documentation/Tracking.md); nil when nothing has reported a state yet. `camera` is the
  /// tracker's estimate, not the true camera.
  public var trackingState: TrackingState? = .normal
  /// Events raised during this tick, in order.
  public var events: [Event] = []

  /// Creates a context.
  public init(
    tick: Int, t: Double, microseconds: Int64, camera: Camera, pointOfView: Node, root: Node,
    planes: [PlaneAnchor] = []
  ) {
    self.tick = tick
    self.t = t
    self.microseconds = microseconds
    self.camera = camera
    self.pointOfView = pointOfView
    self.root = root
    self.planes = planes
  }

  /// ARKit hit-testing against this tick's plane anchors (`ARFrame.hitTest(_:types:)`); call
  /// `hitTest(u:v:types:camera:)` on it with `camera`.
  public var hitTestScene: HitTestScene {
    HitTestScene(planes: planes, pointCloud: featurePoints, estimatedFloorY: estimatedFloorY)
  }

  /// The viewport camera at replay time `t` (seconds): this tick's `camera` when `t` is this
  /// tick's time or no `cameraHistory` is set, else the history's.
  /// - Throws: the history's error when `t` is outside the camera track.
  public func viewportCamera(at t: Double) throws -> Camera {
    guard let cameraHistory, t != self.t else { return camera }
    return try cameraHistory.viewportCamera(at: t)
  }

  /// Records an event at this tick.
  public mutating func emit(_ name: String, _ fields: [(String, JSONValue)] = []) {
    events.append(Event(t: t, tick: tick, name: name, fields: fields))
  }
}

/// A source app's logic on the on-site device, run once per AR tick before constraints are
/// solved. Each app target implements one (ARRemoteAssist, ARMeasure, ARDisplayer,
/// ARCollaboration) and a
/// `SessionKind` makes it from the scene file; the frame loop runs a scene's sessions in
/// registration order (Documentation/CustomSessions.md).
public protocol Session: AnyObject {
  /// Advances the session by one AR tick: deliver due inputs, change the node graph, emit
  /// events.
  func update(_ context: inout TickContext)

  /// Session state for this output frame's trace line (e.g. `("measure", {...})`), in order.
  func traceFields() -> [(String, JSONValue)]

  /// What the app would show on screen over the camera image at this tick (a label's lines,
  /// a status text), in drawing order; drawn only when the run has a `FrameOverlay`, after
  /// rasterizing. Default: nothing.
  func overlayText() -> [OverlayText]
}

extension Session {
  /// No on-screen text.
  public func overlayText() -> [OverlayText] { [] }
}
