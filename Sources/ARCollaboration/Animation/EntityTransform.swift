import ARMath

/// RealityKit's `Transform`: scale, rotation and translation of an entity relative to its
/// parent, in `Float` as RealityKit keeps them; the matrix is T · R · S.
public struct EntityTransform: Hashable, Sendable {
  /// Scale along the parent's axes after rotation (local axes), unitless.
  public var scale: SIMD3<Float>
  /// Rotation as a quaternion vector (x, y, z, w), `simd_quatf.vector` order.
  public var rotation: SIMD4<Float>
  /// Translation, metres.
  public var translation: SIMD3<Float>

  /// Creates a transform.
  public init(
    scale: SIMD3<Float> = .one, rotation: SIMD4<Float> = SIMD4(0, 0, 0, 1),
    translation: SIMD3<Float> = .zero
  ) {
    self.scale = scale
    self.rotation = rotation
    self.translation = translation
  }

  /// The identity.
  public static let identity = EntityTransform()

  /// The rigid part of `matrix` (rotation from its upper 3 × 3, scale one), rounded to `Float`:
  /// what `Entity.convert(transform:from:)` gives for a rigid camera pose, with the scale the
  /// app then fixes to one.
  public init(rigid matrix: Matrix4) {
    let q = Quaternion(rotationMatrix: matrix.upperLeft3x3)
    let t = matrix.translation
    self.init(
      scale: .one, rotation: SIMD4(Float(q.x), Float(q.y), Float(q.z), Float(q.w)),
      translation: SIMD3(Float(t.x), Float(t.y), Float(t.z)))
  }

  /// The rotation as an ARMath quaternion (normalised; the identity for a zero vector).
  public var quaternion: Quaternion {
    let q = Quaternion(
      x: Double(rotation.x), y: Double(rotation.y), z: Double(rotation.z), w: Double(rotation.w))
    return q.normalized ?? .identity
  }

  /// Parent from entity: T(translation) · R(rotation) · S(scale).
  public var matrix: Matrix4 {
    let r = Matrix4(
      rotation: quaternion.rotationMatrix,
      translation: Vector3(Double(translation.x), Double(translation.y), Double(translation.z)))
    return r * Matrix4(scale: Vector3(Double(scale.x), Double(scale.y), Double(scale.z)))
  }

  /// Whether every component is finite.
  public var isFinite: Bool {
    (0..<3).allSatisfy { scale[$0].isFinite && translation[$0].isFinite }
      && (0..<4).allSatisfy { rotation[$0].isFinite }
  }

  /// Whether translation, scale or the rotation vector differ from `other` by more than
  /// `tolerance` in some component: the app's test before it moves an entity (1e-5 in
  /// `CollabModel.update` and `HasPeer.update`). The rotation vectors are compared as they are,
  /// so q and −q differ.
  public func differs(from other: EntityTransform, by tolerance: Float = 1e-5) -> Bool {
    func far<V: SIMD>(_ a: V, _ b: V) -> Bool where V.Scalar == Float {
      for i in a.indices where !(abs(a[i] - b[i]) <= tolerance) { return true }
      return false
    }
    return far(translation, other.translation) || far(scale, other.scale)
      || far(rotation, other.rotation)
  }
}
