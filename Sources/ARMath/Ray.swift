/// A half-line `origin + t · direction`, t ≥ 0, in the frame the owner states.
public struct Ray: Hashable, Sendable {
  /// The start point (metres).
  public var origin: Vector3
  /// The direction; unit length unless a caller states otherwise.
  public var direction: Vector3

  /// Creates a ray; `direction` is stored as given.
  public init(origin: Vector3, direction: Vector3) {
    self.origin = origin
    self.direction = direction
  }

  /// The point at parameter `t`.
  @inlinable public func point(at t: Double) -> Vector3 { origin + direction * t }

  /// The ray mapped by an affine matrix (the direction is not renormalised, so parameters `t`
  /// stay comparable between frames).
  public func transformed(by m: Matrix4) -> Ray {
    Ray(origin: m.transformPoint(origin), direction: m.transformDirection(direction))
  }
}
