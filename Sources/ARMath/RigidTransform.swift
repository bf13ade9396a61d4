/// A rotation followed by a translation: `p ↦ rotation.act(p) + translation`.
///
/// Name instances `aFromB` (`worldFromCamera`): composition reads right to left,
/// `aFromC = aFromB * bFromC`.
public struct RigidTransform: Hashable, Sendable {
  /// The rotation (unit quaternion).
  public var rotation: Quaternion
  /// The translation in metres, in the target frame.
  public var translation: Vector3

  /// Creates a transform from a unit rotation and a translation.
  public init(rotation: Quaternion, translation: Vector3) {
    self.rotation = rotation
    self.translation = translation
  }

  /// Creates a transform from the rotation and translation of an affine matrix whose upper-left
  /// 3×3 is a rotation (scale is not removed).
  public init(matrix m: Matrix4) {
    self.init(rotation: Quaternion(rotationMatrix: m.upperLeft3x3), translation: m.translation)
  }

  /// The identity transform.
  public static let identity = RigidTransform(rotation: .identity, translation: .zero)

  /// The 4×4 matrix, column-major.
  public var matrix: Matrix4 {
    Matrix4(rotation: rotation.rotationMatrix, translation: translation)
  }

  /// The inverse transform (`bFromA` for an `aFromB`).
  public var inverse: RigidTransform {
    let r = rotation.conjugate
    return RigidTransform(rotation: r, translation: -r.act(translation))
  }

  /// Composition: `(a * b).transformPoint(p) == a.transformPoint(b.transformPoint(p))`.
  public static func * (a: RigidTransform, b: RigidTransform) -> RigidTransform {
    RigidTransform(
      rotation: a.rotation * b.rotation, translation: a.rotation.act(b.translation) + a.translation)
  }

  /// Maps a point.
  @inlinable public func transformPoint(_ p: Vector3) -> Vector3 { rotation.act(p) + translation }

  /// Maps a direction (no translation).
  @inlinable public func transformDirection(_ d: Vector3) -> Vector3 { rotation.act(d) }

  /// Interpolates between two poses: linear position, shortest-path slerp orientation.
  public func interpolated(to b: RigidTransform, t: Double) -> RigidTransform {
    RigidTransform(
      rotation: rotation.slerp(to: b.rotation, t: t),
      translation: translation.interpolated(to: b.translation, t: t))
  }
}
