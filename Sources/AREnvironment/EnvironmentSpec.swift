/// The scene file's `environment` section (Documentation/Environments.md): what the camera
/// sees behind the virtual content.
public struct EnvironmentSpec: Decodable, Sendable {
  /// Models read through Assimp (glTF 2.0 `.gltf`/`.glb`, Wavefront `.obj`).
  public var models: [ModelSpec]?
  /// Built-in boxes and planes.
  public var primitives: [PrimitiveSpec]?
  /// Whether the environment hides virtual content behind it (default false: ARKit/SceneKit
  /// apps do not occlude; RealityKit's `sceneUnderstanding` occlusion is the `true` case).
  public var occlusion: Bool?
  /// `unlit` (default: the baked colour a camera records) or `scene` (lambert with the
  /// scene's lights).
  public var lighting: String?
  /// Plane discovery (Documentation/Environments.md, "Plane discovery"): `horizontal`,
  /// `vertical` or both, as ARKit's `ARWorldTrackingConfiguration.planeDetection`; plane
  /// anchors come from the environment's large flat surfaces as the camera sees them. Nil or
  /// empty: none (the scene's hand-keyed `planes` only).
  public var planeDetection: [String]?

  /// A model file placed in the world.
  public struct ModelSpec: Decodable, Sendable {
    /// The file, relative to the scene file's folder.
    public var path: String
    /// World position of the model's origin, metres.
    public var position: [Double]?
    /// Orientation, radians (SceneKit's `eulerAngles`: pitch, yaw, roll).
    public var eulerAngles: [Double]?
    /// Uniform scale (default 1), after `unit`.
    public var scale: Double?
    /// The file's up axis: `y` (default; glTF's) or `z`.
    public var up: String?
    /// The file's length unit: `m` (default; glTF's), `cm`, `mm`, `in`, `ft`.
    public var unit: String?
    /// The classification of planes discovered on the model's surfaces (ARKit's
    /// `ARPlaneAnchor.Classification` name), overriding the rule; glTF carries no such meaning.
    public var classification: String?
  }

  /// A built-in box or plane.
  public struct PrimitiveSpec: Decodable, Sendable {
    /// Name (for warnings and plane classification overrides).
    public var name: String?
    /// A box: `width` (x), `height` (y), `length` (z), metres (SceneKit's `SCNBox`).
    public var box: BoxSpec?
    /// A plane in local XY facing +Z: `width` (x), `height` (y), metres (SceneKit's `SCNPlane`).
    public var plane: PlaneSpec?
    /// World position of the centre, metres.
    public var position: [Double]?
    /// Orientation, radians (SceneKit's `eulerAngles`).
    public var eulerAngles: [Double]?
    /// The look.
    public var material: MaterialSpec?
    /// The classification of planes discovered on the primitive's faces, as for models.
    public var classification: String?
  }

  /// Box extents, metres.
  public struct BoxSpec: Decodable, Sendable {
    /// Along local x.
    public var width: Double
    /// Along local y.
    public var height: Double
    /// Along local z.
    public var length: Double
  }

  /// Plane extents, metres.
  public struct PlaneSpec: Decodable, Sendable {
    /// Along local x.
    public var width: Double
    /// Along local y (the plane faces +z, as SCNPlane).
    public var height: Double
  }

  /// A primitive's material: base colour × base-colour texture.
  public struct MaterialSpec: Decodable, Sendable {
    /// Base colour `[r, g, b]`, sRGB 0…1 (default white).
    public var color: [Double]?
    /// A PNG, relative to the scene file's folder.
    public var texture: String?
    /// `repeat` (default) or `clamp`.
    public var wrap: String?
    /// How many times the texture spans each face along its u and v (default [1, 1]).
    public var repeats: [Double]?
  }

  /// The known keys of each object of the section, by field path pattern below
  /// `environment` (`UnknownFields` in ARReplay).
  public static let schema: [String: Set<String>] = [
    "environment": ["models", "primitives", "occlusion", "lighting", "planeDetection"],
    "environment.models[]": [
      "path", "position", "eulerAngles", "scale", "up", "unit", "classification",
    ],
    "environment.primitives[]": [
      "name", "box", "plane", "position", "eulerAngles", "material", "classification",
    ],
    "environment.primitives[].box": ["width", "height", "length"],
    "environment.primitives[].plane": ["width", "height"],
    "environment.primitives[].material": ["color", "texture", "wrap", "repeats"],
  ]
}
