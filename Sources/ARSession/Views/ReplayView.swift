import ARFormats
import ARMath
import ARScene

/// One camera of a replay that renders several views (each participant of a collaborative
/// session): its own track, start and, optionally, camera and output size. Unset values are
/// the scene's.
public struct ReplayView: Sendable {
  /// The view's name: its output folder under the run's (a safe single path component).
  public var name: String
  /// The view's camera track, in ARKit frames (its own world).
  public var track: CameraTrack
  /// The files the track was read from (a run never writes over them).
  public var trackPaths: [String]
  /// Seconds after the track's first pose where τ = 0.
  public var start: Double
  /// Hold the end poses outside the track instead of failing.
  public var clampTrack: Bool
  /// Capture intrinsics, or nil for the scene's.
  public var captureIntrinsics: CameraIntrinsics?
  /// Viewport, or nil for the scene's.
  public var viewport: Viewport?
  /// Output size in pixels (width, height), or nil for the scene's.
  public var outputSize: (width: Int, height: Int)?
  /// The view's tracker when the scene has a `tracking` section (set by the scene loader), nil
  /// for the track's camera.
  public var tracking: ViewTracking?
  /// The scene-file field that gave the track (`collaboration.participants[2].track`), for
  /// errors that name it with its line; nil: named by the view.
  public var trackField: String?

  /// Creates a view.
  public init(
    name: String, track: CameraTrack, trackPaths: [String], start: Double = 0,
    clampTrack: Bool = false, captureIntrinsics: CameraIntrinsics? = nil,
    viewport: Viewport? = nil, outputSize: (width: Int, height: Int)? = nil
  ) {
    self.name = name
    self.track = track
    self.trackPaths = trackPaths
    self.start = start
    self.clampTrack = clampTrack
    self.captureIntrinsics = captureIntrinsics
    self.viewport = viewport
    self.outputSize = outputSize
  }

  /// The viewport camera's pose (`worldFromCamera`, ARSCNView's `pointOfView` / RealityKit's
  /// `ARView.cameraTransform`) at replay time τ, as the frame loop computes it: the track at
  /// first pose + `start` + τ, rolled by the viewport.
  /// - Throws: `TrackQueryError` outside the track unless `clampTrack`.
  public func worldFromViewportCamera(at t: Double, viewport sceneViewport: Viewport) throws
    -> Matrix4
  {
    try viewportPose(at: t, viewport: sceneViewport).matrix
  }

  /// `worldFromViewportCamera(at:viewport:)` as a rigid transform (the frame loop's
  /// `viewportCamera(at:)` pose, bit for bit).
  /// - Throws: `TrackQueryError` outside the track unless `clampTrack`.
  public func viewportPose(at t: Double, viewport sceneViewport: Viewport) throws
    -> RigidTransform
  {
    let first = track.poses.first?.timeSeconds ?? 0
    let capture = try track.pose(at: first + start + t, clamp: clampTrack)
    let roll = RigidTransform(
      rotation: (viewport ?? sceneViewport).captureFromViewport, translation: .zero)
    return capture * roll
  }
}

/// A session configuration whose scene renders several views (Documentation/Design.md,
/// "Several views"): the frame loop runs once per view, each run with that view's camera and
/// the session `view(_:)` makes, into a folder named after the view; files shared by all views
/// (a collaborative session's `messages.jsonl`) are written once, beside the view folders.
public protocol MultiViewConfiguration: SessionConfiguration {
  /// The views, in output order (the scene loader sets their `tracking`).
  var views: [ReplayView] { get set }

  /// The configuration whose session renders view `index` (0-based, < `views.count`) alone;
  /// `sceneViewport` is the scene's, for views that do not set their own.
  func view(_ index: Int, sceneViewport: Viewport) -> any SessionConfiguration

  /// The files written once per run into the run's folder, as (file name, bytes), after the
  /// views, covering AR ticks at times `tickTimes` (τ seconds, the ticks up to the last frame
  /// any view wrote).
  /// - Throws: located errors of the inputs.
  func sharedOutputs(tickTimes: [Double], sceneViewport: Viewport) throws -> [(
    name: String, bytes: [UInt8]
  )]

  /// One run of the views `indices` (ascending, each < `views.count`), whose sessions may
  /// share work (one collaborative simulation for every view). The default runs each view
  /// alone (`view(_:sceneViewport:)`) and makes the shared outputs on their own
  /// (`sharedOutputs(tickTimes:sceneViewport:)`).
  func makeRun(views indices: [Int], sceneViewport: Viewport) -> any MultiViewRun
}

extension MultiViewConfiguration {
  /// The default: every view runs its own simulation (`IndependentViewsRun`).
  public func makeRun(views indices: [Int], sceneViewport: Viewport) -> any MultiViewRun {
    IndependentViewsRun(configuration: self, sceneViewport: sceneViewport)
  }
}

/// The views of one multi-view run (`MultiViewConfiguration.makeRun`). The frame loop runs all
/// of its views at the same time, one thread each (a view's session may wait for the others to
/// catch up, so they must not run one after another), and tells it when each one has ended.
public protocol MultiViewRun: AnyObject, Sendable {
  /// The configuration of view `index`'s session in this run (made once per view).
  func view(_ index: Int) -> any SessionConfiguration

  /// View `index`'s frame loop has ended (done or failed): its sessions ask for nothing more,
  /// so the others need not wait for it.
  func viewFinished(_ index: Int)

  /// The shared files, as `MultiViewConfiguration.sharedOutputs`, once every view has ended.
  /// - Throws: located errors of the inputs.
  func sharedOutputs(tickTimes: [Double]) throws -> [(name: String, bytes: [UInt8])]
}

/// Views that share nothing: each session made by `view(_:sceneViewport:)`.
final class IndependentViewsRun<Configuration: MultiViewConfiguration>: MultiViewRun {
  let configuration: Configuration
  let sceneViewport: Viewport

  init(configuration: Configuration, sceneViewport: Viewport) {
    self.configuration = configuration
    self.sceneViewport = sceneViewport
  }

  func view(_ index: Int) -> any SessionConfiguration {
    configuration.view(index, sceneViewport: sceneViewport)
  }

  func viewFinished(_ index: Int) {}

  func sharedOutputs(tickTimes: [Double]) throws -> [(name: String, bytes: [UInt8])] {
    try configuration.sharedOutputs(tickTimes: tickTimes, sceneViewport: sceneViewport)
  }
}
