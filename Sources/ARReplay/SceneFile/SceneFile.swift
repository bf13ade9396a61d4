import ARMath
import ARScene
import Foundation

/// A scene file (JSON): everything one replay needs. Documented field by field, with units and
/// defaults, in Documentation/SceneFile.md. Paths are relative to the scene file's folder.
public struct SceneFile: Decodable, Sendable {
  /// The scene's name: the default output folder is `Output/<name>/`. Letters, digits, `-`, `_`
  /// and `.` only (no path separators).
  public var name: String
  /// The camera track.
  public var track: TrackSpec
  /// Capture intrinsics in pixels of the landscape capture (default: `CameraIntrinsics.defaultCapture`).
  public var intrinsics: IntrinsicsSpec?
  /// `landscape` or `portrait` (default `landscape`).
  public var viewport: String?
  /// Output image size and rate.
  public var output: OutputSpec?
  /// ARKit's session rate in Hz: one AR tick per 1/arFrameRate s (default 60).
  public var arFrameRate: Double?
  /// Seconds after the track's first pose where τ = 0 (default 0).
  public var start: Double?
  /// Replay length in seconds (default: to the end of the track). Exclusive with `frames`.
  public var duration: Double?
  /// Number of output frames. Exclusive with `duration`.
  public var frames: JSONInteger?
  /// Clip distances in metres (ARKit's 0.001 and 1000 by default).
  public var clip: ClipSpec?
  /// Background behind everything (default mid grey).
  public var background: BackgroundSpec?
  /// Lights; none = DESIGN §3 defaults (directional straight down + ambient 0.3).
  public var lights: [LightSpec]?
  /// Static nodes, in world coordinates.
  public var nodes: [NodeSpec]?
  /// Plane anchors (no track carries planes).
  public var planes: [PlaneSpec]?
  /// Point cloud for `featurePoint` hit tests (world metres).
  public var pointCloud: [[Double]]?
  /// World y of the estimated floor for `estimatedHorizontalPlane` hit tests.
  public var estimatedFloorY: Double?
  /// The remote-assist session.
  public var remoteAssist: RemoteAssistSpec?
  /// The measuring session.
  public var measure: MeasureSpec?
  /// Tap-to-place video screens.
  public var displayers: DisplayersSpec?
}

extension SceneFile {
  /// A camera track reference.
  public struct TrackSpec: Decodable, Sendable {
    /// Path to the track file.
    public var path: String
    /// Format name (`tum`, `arkit`, `kitti`, `euroc`, `arkitscenes`, `json`); detected if absent.
    public var format: String?
    /// Camera axes of the file (`opencv` or `arkit`); the format's default if absent.
    public var cameraAxes: String?
    /// World up axis of the file (`y`, `z`, `minusY`); the format's default if absent.
    public var worldUp: String?
    /// KITTI times file.
    public var times: String?
    /// EuRoC camera sensor.yaml (T_BS).
    public var sensor: String?
    /// Hold the end poses outside the track instead of failing (default false).
    public var clamp: Bool?
  }

  /// Pinhole intrinsics in pixels.
  public struct IntrinsicsSpec: Decodable, Sendable {
    public var fx: Double
    public var fy: Double
    public var cx: Double
    public var cy: Double
    public var width: JSONInteger
    public var height: JSONInteger
  }

  /// Output settings.
  public struct OutputSpec: Decodable, Sendable {
    /// Output width in pixels (default: the viewport's capture width).
    public var width: JSONInteger?
    /// Output height in pixels.
    public var height: JSONInteger?
    /// Output frames per second (default 30).
    public var fps: Double?
    /// Write a 16-bit depth PNG per frame (default false).
    public var depth: Bool?
    /// N for N×N supersampling (default 1).
    public var supersampling: JSONInteger?
    /// PNG speed/size preset: `fast` (default) or `small`.
    public var png: String?
  }

  /// Clip distances.
  public struct ClipSpec: Decodable, Sendable {
    public var near: Double?
    public var far: Double?
  }

  /// A background: exactly one of the fields.
  public struct BackgroundSpec: Decodable, Sendable {
    /// Solid colour `[r, g, b]` or `[r, g, b, a]`, 0…1.
    public var color: [Double]?
    /// Vertical gradient.
    public var gradient: GradientSpec?
    /// Folder of PNG frames (sorted by name; frame i uses image i, the last one after the end).
    public var images: String?
  }

  /// A vertical gradient.
  public struct GradientSpec: Decodable, Sendable {
    public var top: [Double]
    public var bottom: [Double]
  }

  /// A light.
  public struct LightSpec: Decodable, Sendable {
    /// `directional` or `ambient`.
    public var type: String
    /// Colour `[r, g, b]`, 0…1 (default white).
    public var color: [Double]?
    /// Multiplier (default 1).
    public var intensity: Double?
    /// Orientation of a directional light (it shines along its local −Z), radians.
    public var eulerAngles: [Double]?
  }

  /// A static node with optional geometry and children.
  public struct NodeSpec: Decodable, Sendable {
    public var name: String?
    /// Metres, parent frame.
    public var position: [Double]?
    /// Radians (pitch, yaw, roll).
    public var eulerAngles: [Double]?
    public var scale: [Double]?
    public var opacity: Double?
    public var hidden: Bool?
    public var geometry: GeometrySpec?
    public var material: MaterialSpec?
    /// Billboard (`all`/`y`) constraint toward the camera.
    public var billboard: String?
    public var children: [NodeSpec]?
  }

  /// A geometry: exactly one of the fields.
  public struct GeometrySpec: Decodable, Sendable {
    public var sphere: SphereSpec?
    public var box: BoxSpec?
    public var plane: PlaneGeometrySpec?
  }

  public struct SphereSpec: Decodable, Sendable { public var radius: Double }
  public struct BoxSpec: Decodable, Sendable {
    public var width: Double
    public var height: Double
    public var length: Double
  }
  public struct PlaneGeometrySpec: Decodable, Sendable {
    public var width: Double
    public var height: Double
  }

  /// A material.
  public struct MaterialSpec: Decodable, Sendable {
    /// `[r, g, b]` or `[r, g, b, a]`, 0…1.
    public var diffuse: [Double]?
    public var specular: [Double]?
    public var shininess: Double?
    /// `constant`, `lambert` or `blinn` (default).
    public var lightingModel: String?
    public var doubleSided: Bool?
    public var transparency: Double?
  }

  /// A plane anchor.
  public struct PlaneSpec: Decodable, Sendable {
    public var id: String?
    /// Anchor origin, world metres.
    public var position: [Double]
    /// Anchor orientation, radians (pitch, yaw, roll); default none (horizontal, normal +Y).
    public var eulerAngles: [Double]?
    /// Rectangle centre in the anchor frame `[x, 0, z]` (default zero).
    public var center: [Double]?
    /// Rectangle size `[x, z]` in metres.
    public var extent: [Double]
    /// Convex boundary polygon `[[x, z], …]` in the anchor frame.
    public var boundary: [[Double]]?
    /// `horizontal` (default) or `vertical`.
    public var alignment: String?
    /// τ when the anchor appears (default 0).
    public var appearsAt: Double?
    /// `none` (default), `translucent` (a 40 % blue fill) or `fade` (the sample app's red slab
    /// fading out over 1 s).
    public var visualization: String?
  }

  /// The measuring session (measure app).
  public struct MeasureSpec: Decodable, Sendable {
    /// τ (seconds) at which the measuring switch toggles: on, off, on, …
    public var switchTimes: [Double]
  }

  /// The displayer session (video-with-ARKit app).
  public struct DisplayersSpec: Decodable, Sendable {
    /// Taps: τ seconds and output pixel (u right, v down).
    public var taps: [TapSpec]
    /// `hitTransform` (default) or `faceCamera`.
    public var orientation: String?
    /// Remote videos (YUV4MPEG2), assigned to free screens in start order.
    public var videos: [VideoSpec]?
    /// `queue` (default) or `drop`: a video with no free screen waits or is dropped.
    public var waitingVideo: String?
    /// `hold` (default) or `loop` after a video's last frame.
    public var end: String?
    /// Convert frames as the app's Metal kernel does (default false).
    public var appKernel: Bool?
  }

  /// One tap.
  public struct TapSpec: Decodable, Sendable {
    public var t: Double
    public var u: Double
    public var v: Double
  }

  /// One remote video.
  public struct VideoSpec: Decodable, Sendable {
    /// Path to a `.y4m` file.
    public var path: String
    /// τ when the remote user joins (default 0); video time = τ − start.
    public var start: Double?
    /// `full` or `limited`; overrides the file's `XCOLORRANGE`.
    public var range: String?
  }

  /// The remote-assist session.
  public struct RemoteAssistSpec: Decodable, Sendable {
    /// Stroke log (JSON Lines).
    public var strokes: String
    /// `faithful` (default) or `corrected`.
    public var mode: String?
    /// Points per AR tick (default 1).
    public var pointsPerFrame: JSONInteger?
  }
}
