/// A shared model, after the app's `ModelData` (`Codable`; SourceApps.md §4.2): its transform
/// relative to `collabBase` as scale, rotation (quaternion vector x, y, z, w) and translation
/// (metres), all `Float`, each encoded as a JSON array.
///
/// Decoding needs every field, `isFree` included (a payload without it fails with
/// `keyNotFound`, as the app's decoder does).
public struct ModelData: Codable, Hashable, Sendable {
  /// The model's unique id (a UUID string in the app); also its entity name.
  public var id: String
  /// The USDZ asset name (`"forest_tree1"`).
  public var usdz: String
  /// Scale in `collabBase` space.
  public var scale: SIMD3<Float>
  /// Orientation in `collabBase` space, `simd_quatf.vector` order (x, y, z, w).
  public var rotation: SIMD4<Float>
  /// Position in `collabBase` space, metres.
  public var translation: SIMD3<Float>
  /// Whether nobody holds the model (the app never sets it false).
  public var isFree: Bool
  /// The last user to move it (an RTM id).
  public var owner: String

  /// Creates model data.
  public init(
    id: String, usdz: String, transform: EntityTransform, isFree: Bool = true, owner: String
  ) {
    self.id = id
    self.usdz = usdz
    self.scale = transform.scale
    self.rotation = transform.rotation
    self.translation = transform.translation
    self.isFree = isFree
    self.owner = owner
  }

  /// The transform relative to `collabBase` (the app's computed `transform`, not encoded).
  public var transform: EntityTransform {
    EntityTransform(scale: scale, rotation: rotation, translation: translation)
  }
}
