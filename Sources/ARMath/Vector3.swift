/// A 3-component vector of `Double`: a point or a direction, in whatever frame the owner states.
///
/// Units are the owner's (metres for world and camera space throughout ARSim).
public struct Vector3: Hashable, Sendable, CustomStringConvertible {
  /// The x component.
  public var x: Double
  /// The y component.
  public var y: Double
  /// The z component.
  public var z: Double

  /// Creates a vector from its components.
  @inlinable public init(_ x: Double, _ y: Double, _ z: Double) {
    self.x = x
    self.y = y
    self.z = z
  }

  /// The zero vector.
  public static let zero = Vector3(0, 0, 0)
  /// The all-ones vector (a unit scale).
  public static let one = Vector3(1, 1, 1)
  /// The unit X axis.
  public static let unitX = Vector3(1, 0, 0)
  /// The unit Y axis (world up in ARKit's frame).
  public static let unitY = Vector3(0, 1, 0)
  /// The unit Z axis.
  public static let unitZ = Vector3(0, 0, 1)

  /// The components as an array `[x, y, z]`.
  public var array: [Double] { [x, y, z] }

  /// A description such as `(1.0, 2.0, 3.0)`.
  public var description: String { "(\(x), \(y), \(z))" }

  /// The component-wise sum.
  @inlinable public static func + (a: Vector3, b: Vector3) -> Vector3 {
    Vector3(a.x + b.x, a.y + b.y, a.z + b.z)
  }
  /// The component-wise difference.
  @inlinable public static func - (a: Vector3, b: Vector3) -> Vector3 {
    Vector3(a.x - b.x, a.y - b.y, a.z - b.z)
  }
  /// The negated vector.
  @inlinable public static prefix func - (a: Vector3) -> Vector3 { Vector3(-a.x, -a.y, -a.z) }
  /// Every component multiplied by `s`.
  @inlinable public static func * (a: Vector3, s: Double) -> Vector3 {
    Vector3(a.x * s, a.y * s, a.z * s)
  }
  /// Every component multiplied by `s`.
  @inlinable public static func * (s: Double, a: Vector3) -> Vector3 { a * s }
  /// Every component divided by `s` (IEEE division: a zero `s` gives infinities).
  @inlinable public static func / (a: Vector3, s: Double) -> Vector3 {
    Vector3(a.x / s, a.y / s, a.z / s)
  }
  /// Adds `b` component-wise.
  @inlinable public static func += (a: inout Vector3, b: Vector3) { a = a + b }
  /// Subtracts `b` component-wise.
  @inlinable public static func -= (a: inout Vector3, b: Vector3) { a = a - b }

  /// The component-wise product.
  @inlinable public func scaled(by s: Vector3) -> Vector3 { Vector3(x * s.x, y * s.y, z * s.z) }

  /// The dot product.
  @inlinable public func dot(_ b: Vector3) -> Double { x * b.x + y * b.y + z * b.z }

  /// The right-handed cross product `self × b`.
  @inlinable public func cross(_ b: Vector3) -> Vector3 {
    Vector3(y * b.z - z * b.y, z * b.x - x * b.z, x * b.y - y * b.x)
  }

  /// The Euclidean length.
  @inlinable public var length: Double { dot(self).squareRoot() }

  /// The squared Euclidean length.
  @inlinable public var lengthSquared: Double { dot(self) }

  /// The unit vector in the same direction, or `nil` for a zero or non-finite vector.
  @inlinable public var normalized: Vector3? {
    let l = length
    guard l > 0, l.isFinite else { return nil }
    return self / l
  }

  /// The Euclidean distance to `b`.
  @inlinable public func distance(to b: Vector3) -> Double { (self - b).length }

  /// Whether every component is finite.
  @inlinable public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

  /// Linear interpolation: `self` at t = 0, `b` at t = 1.
  @inlinable public func interpolated(to b: Vector3, t: Double) -> Vector3 {
    self + (b - self) * t
  }
}
