import CGLM
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A rotation quaternion stored `(x, y, z, w)` like `simd_quatd` and ARKit files; `w` is the
/// scalar part. (GLM 0.9.9's constructor takes `(w, x, y, z)`: the bridge converts.)
///
/// Rotations act on column vectors: `q.act(v) = q · v · q⁻¹`. `a * b` applies `b` first.
public struct Quaternion: Hashable, Sendable {
  /// The vector part, x.
  public var x: Double
  /// The vector part, y.
  public var y: Double
  /// The vector part, z.
  public var z: Double
  /// The scalar part.
  public var w: Double

  /// Creates a quaternion from its components (not normalised).
  @inlinable public init(x: Double, y: Double, z: Double, w: Double) {
    self.x = x
    self.y = y
    self.z = z
    self.w = w
  }

  /// The identity rotation.
  public static let identity = Quaternion(x: 0, y: 0, z: 0, w: 1)

  /// A rotation of `angleRadians` about `axis` (right-hand rule; the axis need not be unit).
  /// A zero axis gives the identity.
  public init(axis: Vector3, angleRadians: Double) {
    guard axis.normalized != nil else {
      self = .identity
      return
    }
    self.init(glm: arsim_glm.quaternionFromAxisAngle(axis.x, axis.y, axis.z, angleRadians))
  }

  /// The rotation of a rotation matrix (orthonormal, determinant +1), via GLM's `quat_cast`.
  public init(rotationMatrix m: Matrix3) {
    self.init(glm: arsim_glm.quaternionFromMatrix(Matrix4(rotation: m).glm))
  }

  /// The squared norm.
  @inlinable public var normSquared: Double { x * x + y * y + z * z + w * w }

  /// The norm (1 for a rotation).
  @inlinable public var norm: Double { normSquared.squareRoot() }

  /// The unit quaternion, or `nil` for a zero or non-finite one.
  public var normalized: Quaternion? {
    let n = norm
    guard n > 0, n.isFinite else { return nil }
    return Quaternion(x: x / n, y: y / n, z: z / n, w: w / n)
  }

  /// The inverse rotation (the conjugate; assumes a unit quaternion).
  @inlinable public var conjugate: Quaternion { Quaternion(x: -x, y: -y, z: -z, w: w) }

  /// The 4-D dot product (cosine of half the angle between two unit rotations).
  @inlinable public func dot(_ b: Quaternion) -> Double { x * b.x + y * b.y + z * b.z + w * b.w }

  /// The Hamilton product: the rotation `b` followed by `a`.
  public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
    Quaternion(glm: arsim_glm.multiply(a.glm, b.glm))
  }

  /// Rotates a vector.
  @inlinable public func act(_ v: Vector3) -> Vector3 {
    // v' = v + 2w(u × v) + 2u × (u × v), u = (x, y, z)
    let u = Vector3(x, y, z)
    let t = u.cross(v) * 2
    return v + t * w + u.cross(t)
  }

  /// The 3×3 rotation matrix (GLM's `mat4_cast`).
  public var rotationMatrix: Matrix3 {
    Matrix4(glm: arsim_glm.rotationMatrix(glm)).upperLeft3x3
  }

  /// The rotation angle in radians, 0…π.
  public var angleRadians: Double {
    let q = w < 0 ? Quaternion(x: -x, y: -y, z: -z, w: -w) : self
    return 2 * atan2(Vector3(q.x, q.y, q.z).length, q.w)
  }

  /// The rotation axis (unit), or +X for the identity.
  public var axis: Vector3 {
    let q = w < 0 ? Quaternion(x: -x, y: -y, z: -z, w: -w) : self
    return Vector3(q.x, q.y, q.z).normalized ?? .unitX
  }

  /// Spherical interpolation along the shortest path (`self` at t = 0, `b` at t = 1), by GLM's
  /// `slerp` (which negates `b` when the dot product is negative and falls back to linear
  /// interpolation when the rotations nearly coincide); the result is renormalised.
  public func slerp(to b: Quaternion, t: Double) -> Quaternion {
    let r = Quaternion(glm: arsim_glm.slerp(glm, b.glm, t))
    return r.normalized ?? r
  }

  /// The angle in radians between two rotations (0…π).
  public func angularDistance(to b: Quaternion) -> Double {
    2 * acos(min(1, abs(dot(b)) / (norm * b.norm)))
  }
}

extension Quaternion {
  /// The smallest rotation taking direction `a` to direction `b` (neither need be unit).
  /// Opposite directions turn by π about an axis perpendicular to `a`; zero vectors give the
  /// identity.
  public static func shortestArc(from a: Vector3, to b: Vector3) -> Quaternion {
    guard let u = a.normalized, let v = b.normalized else { return .identity }
    let d = u.dot(v)
    if d < -1 + 1e-12 {
      let axis = (abs(u.x) < 0.9 ? Vector3.unitX : .unitY).cross(u)
      return Quaternion(axis: axis, angleRadians: .pi)
    }
    let c = u.cross(v)
    return Quaternion(x: c.x, y: c.y, z: c.z, w: 1 + d).normalized ?? .identity
  }
}
