/// A 2-component vector of `Double` (metric, or a helper's view points where stated).
public struct Vector2: Hashable, Sendable {
  /// The x component.
  public var x: Double
  /// The y component.
  public var y: Double

  /// Creates a vector from its components.
  @inlinable public init(_ x: Double, _ y: Double) {
    self.x = x
    self.y = y
  }

  /// The component-wise sum.
  @inlinable public static func + (a: Vector2, b: Vector2) -> Vector2 {
    Vector2(a.x + b.x, a.y + b.y)
  }
  /// The component-wise difference.
  @inlinable public static func - (a: Vector2, b: Vector2) -> Vector2 {
    Vector2(a.x - b.x, a.y - b.y)
  }
  /// Every component multiplied by `s`.
  @inlinable public static func * (a: Vector2, s: Double) -> Vector2 { Vector2(a.x * s, a.y * s) }
  /// The dot product.
  @inlinable public func dot(_ b: Vector2) -> Double { x * b.x + y * b.y }
  /// The z component of the 3-D cross product of (x, y, 0) vectors.
  @inlinable public func cross(_ b: Vector2) -> Double { x * b.y - y * b.x }
  /// The Euclidean length.
  @inlinable public var length: Double { dot(self).squareRoot() }
}
