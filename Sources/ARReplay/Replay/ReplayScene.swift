import AREnvironment
import ARFormats
import ARMath
import ARRender
import ARScene
import ARSession
import ARSupport
import ARTracking

/// A validated scene ready to replay: the scene file resolved against its folder, with the
/// track, logs and settings loaded.
public struct ReplayScene: Sendable {
  /// The scene's name (a safe single path component).
  public var name: String
  /// The scene file's path.
  public var sceneFilePath: String
  /// The camera track in ARKit frames.
  public var track: CameraTrack
  /// Hold end poses outside the track instead of failing.
  public var clampTrack: Bool
  /// Capture intrinsics (landscape capture pixels).
  public var captureIntrinsics: CameraIntrinsics
  /// How the capture is shown.
  public var viewport: Viewport
  /// Output image intrinsics (derived from capture, viewport and output size).
  public var outputIntrinsics: CameraIntrinsics
  /// AR ticks and output frames.
  public var schedule: FrameSchedule
  /// Seconds after the track's first pose where τ = 0.
  public var start: Double
  /// Clip distances (metres).
  public var near: Double
  /// Far clip distance (metres).
  public var far: Double
  /// Background.
  public var background: BackgroundSource
  /// N×N supersampling.
  public var supersampling: Int
  /// Whether to write depth PNGs.
  public var writesDepth: Bool
  /// PNG encoder settings.
  public var png: PNGEncoder
  /// Lights (empty = the renderer's defaults).
  public var lights: [SceneFile.LightSpec]
  /// Static nodes.
  public var nodes: [SceneFile.NodeSpec]
  /// Plane anchors and when they appear.
  public var planes: [TimedPlaneAnchor]
  /// Feature points for hit tests (world metres).
  public var pointCloud: [Vector3]
  /// Estimated floor height for hit tests.
  public var estimatedFloorY: Double?
  /// The environment drawn as the camera image (nil: none).
  public var environment: Environment?
  /// Feature points sampled on the environment (ARKit's `rawFeaturePoints`; nil without an
  /// environment).
  public var featurePoints: EnvironmentFeaturePoints?
  /// The environment's surfaces plane discovery watches (empty without
  /// `environment.planeDetection`), found once at load for every view.
  public var discoverySurfaces: [EnvironmentSurface] = []
  /// The sessions the scene asks for, one per registered kind whose section it has, in
  /// registration order (the order they run each tick).
  public var sessions: [SceneSession] = []
  /// The tracker (Documentation/Tracking.md): inactive without a `tracking` section (the
  /// track's camera; only keyframes such as `measure.tracking` give the state).
  public var tracking = TrackingConfiguration()
  /// Findings that did not stop loading (unknown fields, track warnings).
  public var warnings: [String]
  /// Every file the scene reads: the scene file, track (and times, sensor), stroke log, videos
  /// and background images, as resolved against the scene's folder. A run refuses to write an
  /// output over any of them.
  public var inputPaths: [String] = []
}

/// One session kind's checked section of a scene.
public struct SceneSession: Sendable {
  /// The kind's scene-file key (`SessionKind.key`).
  public var key: String
  /// The checked section; makes the session of each run.
  public var configuration: any SessionConfiguration

  /// Creates a scene session.
  public init(key: String, configuration: any SessionConfiguration) {
    self.key = key
    self.configuration = configuration
  }
}

/// A plane anchor with its lifecycle (appearance, updates, removal) and optional
/// visualisation.
public struct TimedPlaneAnchor: Hashable, Sendable {
  /// When the anchor is present and in which state (`PlaneAnchorTimeline.anchor(at:)`).
  public var timeline: PlaneAnchorTimeline
  /// `none`, `translucent` or `fade`.
  public var visualization: String

  /// The anchor as first detected.
  public var anchor: PlaneAnchor { timeline.initial }
  /// τ when it appears (seconds).
  public var appearsAt: Double { timeline.appearsAt }
}

/// Where the background comes from.
public enum BackgroundSource: Sendable {
  /// The same background every frame.
  case fixed(Background)
  /// One PNG per output frame (sorted file names; the last one repeats past the end).
  case images([String])
  /// Recorded camera images picked by time, undistorted onto the output camera.
  case recording(RecordingBackground)
}

extension ReplayScene {
  /// The same scene rendered at another output size (intrinsics re-derived from the capture
  /// intrinsics and viewport with aspect fill; each session's configuration told of the change,
  /// e.g. taps given in output pixels move to the pixels of the same camera rays): reduced-size
  /// goldens and previews.
  /// Precondition: `width > 0`, `height > 0` (trap).
  public func resized(width: Int, height: Int) -> ReplayScene {
    var copy = self
    let old = outputIntrinsics
    let new = captureIntrinsics.output(viewport: viewport, width: width, height: height)
    copy.outputIntrinsics = new
    copy.sessions = sessions.map { session in
      SceneSession(
        key: session.key, configuration: session.configuration.resized(from: old, to: new))
    }
    return copy
  }
}
