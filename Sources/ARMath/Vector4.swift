/// A 4-component vector of `Double`: a homogeneous point or a matrix column.
public struct Vector4: Hashable, Sendable {
  /// The x component.
  public var x: Double
  /// The y component.
  public var y: Double
  /// The z component.
  public var z: Double
  /// The w component (1 for points, 0 for directions).
  public var w: Double

  /// Creates a vector from its components.
  @inlinable public init(_ x: Double, _ y: Double, _ z: Double, _ w: Double) {
    self.x = x
    self.y = y
    self.z = z
    self.w = w
  }

  /// Creates a vector from a 3-vector and a w component.
  @inlinable public init(_ v: Vector3, _ w: Double) { self.init(v.x, v.y, v.z, w) }

  /// The first three components.
  @inlinable public var xyz: Vector3 { Vector3(x, y, z) }

  /// The component-wise sum.
  @inlinable public static func + (a: Vector4, b: Vector4) -> Vector4 {
    Vector4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w)
  }
  /// Every component multiplied by `s`.
  @inlinable public static func * (a: Vector4, s: Double) -> Vector4 {
    Vector4(a.x * s, a.y * s, a.z * s, a.w * s)
  }
  /// The dot product.
  @inlinable public func dot(_ b: Vector4) -> Double { x * b.x + y * b.y + z * b.z + w * b.w }
}
