import ARFormats
import AREnvironment
import ARMath
import ARScene
import ARSession
import ARSupport
import ARTracking
import Foundation

/// A scene file (JSON): everything one replay needs. Documented field by field, with units and
/// defaults, in Documentation/SceneFile.md. Paths are relative to the scene file's folder.
public struct SceneFile: Decodable, Sendable {
  /// The scene's name: the default output folder is `Output/<name>/`. Letters, digits, `-`, `_`
  /// and `.` only (no path separators).
  public var name: String
  /// The camera track of the scene's view. Decoded as optional so that the loader, not the
  /// decoder, decides: required today ("missing (required)"); a scene whose participants bring
  /// their own tracks (Documentation/Design.md, "Several views") will not need it.
  public var track: TrackSpec?
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
  /// Read only to refuse it: plane detection is `environment.planeDetection`.
  public var planeDetection: [String]?
  /// The tracker: states, pose error, dropped frames (Documentation/Tracking.md); absent =
  /// the track's camera exactly.
  public var tracking: TrackingSpec?
  /// The room the camera sees: models and primitives drawn as the camera image
  /// (Documentation/Environments.md).
  public var environment: EnvironmentSpec?
}

extension SceneFile {
  /// A camera track reference: the shape every section's track shares (ARSession).
  public typealias TrackSpec = ARSession.TrackSpec

  /// Pinhole intrinsics in pixels: the shape every section's intrinsics share (ARSession).
  public typealias IntrinsicsSpec = ARSession.IntrinsicsSpec

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
    /// Near clip distance, metres (default 0.001).
    public var near: Double?
    /// Far clip distance, metres (default 1000).
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
    /// Recorded camera images timed to the track (Documentation/CameraImages.md); `color` or
    /// `gradient` may go with it, shown while no image is taken yet.
    public var recording: RecordingSpec?
  }

  /// Recorded camera images behind the content: an image list or a video, with its lens.
  public struct RecordingSpec: Decodable, Sendable {
    /// An image list: TUM `rgb.txt`, EuRoC `data.csv` or a times file.
    public var list: String?
    /// `tum`, `euroc` or `times` (default: `euroc` for `.csv`, `times` with `folder`, else `tum`).
    public var format: String?
    /// The images' folder for a times file (default the list's folder).
    public var folder: String?
    /// A video file (MP4, MOV, MKV) decoded by ffmpeg; exclusive with `list`.
    public var video: String?
    /// Seconds added to a frame's time before the image is picked: the image clock minus the
    /// pose clock (default 0).
    public var offset: Double?
    /// The images' lens (default: the scene's intrinsics, no distortion).
    public var lens: LensSpec?
  }

  /// Intrinsics (pixels of the recorded images) and distortion: the intrinsics object's
  /// fields (`fx fy cx cy width height`, the recorded images' size) and `distortion`, in one
  /// JSON object.
  public struct LensSpec: Decodable, Sendable {
    /// The recorded images' intrinsics.
    public var intrinsics: IntrinsicsSpec
    /// Distortion (default none).
    public var distortion: DistortionSpec?

    private enum CodingKeys: String, CodingKey { case distortion }

    /// Decodes the intrinsics' fields and `distortion` from the same object.
    public init(from decoder: any Decoder) throws {
      intrinsics = try IntrinsicsSpec(from: decoder)
      distortion = try decoder.container(keyedBy: CodingKeys.self)
        .decodeIfPresent(DistortionSpec.self, forKey: .distortion)
    }
  }

  /// A distortion model and its coefficients in OpenCV's order.
  public struct DistortionSpec: Decodable, Sendable {
    /// `radialTangential` (k1 k2 p1 p2 [k3]) or `equidistant` (k1 k2 k3 k4).
    public var model: String
    /// The coefficients.
    public var coefficients: [Double]
  }

  /// A vertical gradient.
  public struct GradientSpec: Decodable, Sendable {
    /// Colour at the top row, `[r, g, b]` 0…1.
    public var top: [Double]
    /// Colour at the bottom row, `[r, g, b]` 0…1.
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
    /// Node name (for lookup and trace.jsonl).
    public var name: String?
    /// Metres, parent frame.
    public var position: [Double]?
    /// Radians (pitch, yaw, roll).
    public var eulerAngles: [Double]?
    /// Scale along local axes `[x, y, z]` (default 1).
    public var scale: [Double]?
    /// Opacity 0…1 of the node and its subtree (default 1).
    public var opacity: Double?
    /// Skip the node and its subtree (default false).
    public var hidden: Bool?
    /// The node's geometry, if any.
    public var geometry: GeometrySpec?
    /// The geometry's material (SceneKit defaults).
    public var material: MaterialSpec?
    /// Billboard (`all`/`y`) constraint toward the camera.
    public var billboard: String?
    /// Child nodes, in the parent's frame.
    public var children: [NodeSpec]?
  }

  /// A geometry: exactly one of the fields.
  public struct GeometrySpec: Decodable, Sendable {
    /// A sphere.
    public var sphere: SphereSpec?
    /// A box.
    public var box: BoxSpec?
    /// A plane (local XY, facing +Z).
    public var plane: PlaneGeometrySpec?
  }

  /// A sphere of `radius` metres (before scale).
  public struct SphereSpec: Decodable, Sendable {
    /// Radius, metres before scale.
    public var radius: Double
  }
  /// A box: `width` along x, `height` along y, `length` along z, metres.
  public struct BoxSpec: Decodable, Sendable {
    /// Extent along local x, metres.
    public var width: Double
    /// Extent along local y, metres.
    public var height: Double
    /// Extent along local z, metres.
    public var length: Double
  }
  /// A plane: `width` along x, `height` along y, metres.
  public struct PlaneGeometrySpec: Decodable, Sendable {
    /// Extent along local x, metres.
    public var width: Double
    /// Extent along local y, metres.
    public var height: Double
  }

  /// A material.
  public struct MaterialSpec: Decodable, Sendable {
    /// `[r, g, b]` or `[r, g, b, a]`, 0…1.
    public var diffuse: [Double]?
    /// Specular colour `[r, g, b]` 0…1 (default black, as SceneKit).
    public var specular: [Double]?
    /// Blinn exponent (default 1).
    public var shininess: Double?
    /// `constant`, `lambert` or `blinn` (default).
    public var lightingModel: String?
    /// Draw back faces too (default false).
    public var doubleSided: Bool?
    /// Material opacity 0…1 (default 1).
    public var transparency: Double?
  }

  /// One update of a plane anchor.
  public struct PlaneUpdateSpec: Decodable, Sendable {
    /// τ from which it applies, seconds (after `appearsAt`, increasing).
    public var t: Double
    /// New rectangle centre `[x, 0, z]` in the anchor frame.
    public var center: [Double]?
    /// New rectangle size `[x, z]`, metres.
    public var extent: [Double]?
    /// New convex boundary `[[x, z], …]`; `[]` goes back to the extent rectangle.
    public var boundary: [[Double]]?
  }

  /// A plane anchor.
  public struct PlaneSpec: Decodable, Sendable {
    /// Anchor identifier (default `plane-<index>`).
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
    /// τ when ARKit removes the anchor (`didRemove`); default never.
    public var disappearsAt: Double?
    /// The anchor that grows over this one: the removal at `disappearsAt` is a merge.
    public var mergedInto: String?
    /// ARKit's `didUpdate` steps: from each `t` on, the given `center`, `extent`, `boundary`
    /// (an omitted one keeps its previous value).
    public var updates: [PlaneUpdateSpec]?
    /// `none` (default), `translucent` (a 40 % blue fill) or `fade` (the sample app's red slab
    /// fading out over 1 s).
    public var visualization: String?
  }
}
