import ARMath
import ARRender
import ARScene

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
  /// The remote-assist session's inputs.
  public var remoteAssist:
    (messages: [StrokeMessage], configuration: RemoteAssistSession.Configuration)?
  /// The measuring switch times (τ seconds), when the scene measures.
  public var measureSwitchTimes: [Double]?
  /// The displayer session's configuration, when the scene places video screens.
  public var displayers: DisplayerConfiguration?
  /// Findings that did not stop loading (unknown fields, track warnings).
  public var warnings: [String]
  /// Every file the scene reads: the scene file, track (and times, sensor), stroke log, videos
  /// and background images, as resolved against the scene's folder. A run refuses to write an
  /// output over any of them.
  public var inputPaths: [String] = []
}

/// A plane anchor with its appearance time and optional visualisation.
public struct TimedPlaneAnchor: Hashable, Sendable {
  /// The anchor.
  public var anchor: PlaneAnchor
  /// τ when it appears (seconds).
  public var appearsAt: Double
  /// `none`, `grid` or `fade`.
  public var visualization: String
}

/// Where the background comes from.
public enum BackgroundSource: Sendable {
  /// The same background every frame.
  case fixed(Background)
  /// One PNG per output frame (sorted file names; the last one repeats past the end).
  case images([String])
}

extension ReplayScene {
  /// The same scene rendered at another output size (intrinsics re-derived from the capture
  /// intrinsics and viewport with aspect fill; displayer taps moved to the pixels of the same
  /// camera rays): reduced-size goldens and previews.
  /// Precondition: `width > 0`, `height > 0` (trap).
  public func resized(width: Int, height: Int) -> ReplayScene {
    var copy = self
    let old = outputIntrinsics
    let new = captureIntrinsics.output(viewport: viewport, width: width, height: height)
    copy.outputIntrinsics = new
    // Taps are output pixels: move each to the pixel that shows the same camera ray.
    copy.displayers?.taps = (displayers?.taps ?? []).map { tap in
      var moved = tap
      moved.u = (tap.u - old.cx) / old.fx * new.fx + new.cx
      moved.v = (tap.v - old.cy) / old.fy * new.fy + new.cy
      return moved
    }
    return copy
  }
}
