/// A 3×3 matrix of `Double`, column-major: typically a rotation or a rotation-and-scale.
public struct Matrix3: Hashable, Sendable {
  /// The three columns.
  public var columns: (Vector3, Vector3, Vector3)

  /// Creates a matrix from its columns.
  @inlinable public init(_ c0: Vector3, _ c1: Vector3, _ c2: Vector3) { columns = (c0, c1, c2) }

  /// Creates a matrix from 9 numbers in row-major order.
  ///
  /// Precondition: `e.count == 9` (trap otherwise).
  public init(rowMajor e: [Double]) {
    precondition(e.count == 9, "Matrix3 needs 9 elements")
    self.init(Vector3(e[0], e[3], e[6]), Vector3(e[1], e[4], e[7]), Vector3(e[2], e[5], e[8]))
  }

  /// The identity matrix.
  public static let identity = Matrix3(.unitX, .unitY, .unitZ)

  /// `self · v`.
  @inlinable public func multiply(_ v: Vector3) -> Vector3 {
    columns.0 * v.x + columns.1 * v.y + columns.2 * v.z
  }

  /// The matrix product `self · b`.
  @inlinable public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
    Matrix3(a.multiply(b.columns.0), a.multiply(b.columns.1), a.multiply(b.columns.2))
  }

  /// The transpose (the inverse of a rotation).
  @inlinable public var transposed: Matrix3 {
    let (a, b, c) = columns
    return Matrix3(Vector3(a.x, b.x, c.x), Vector3(a.y, b.y, c.y), Vector3(a.z, b.z, c.z))
  }

  /// The determinant (+1 for a proper rotation).
  @inlinable public var determinant: Double { columns.0.dot(columns.1.cross(columns.2)) }

  /// The largest absolute element of `self · selfᵀ − I`: 0 for an exact rotation.
  public var orthonormalityError: Double {
    let p = self * transposed
    let rows = [p.columns.0 - .unitX, p.columns.1 - .unitY, p.columns.2 - .unitZ]
    return rows.map { max(abs($0.x), abs($0.y), abs($0.z)) }.max() ?? 0
  }

  /// The nearest rotation by Gram–Schmidt on the columns (x kept, then y, z = x × y), or `nil`
  /// when the columns are degenerate.
  public var orthonormalized: Matrix3? {
    guard let x = columns.0.normalized,
      let y = (columns.1 - x * x.dot(columns.1)).normalized
    else { return nil }
    return Matrix3(x, y, x.cross(y))
  }

  /// Exact equality of every component.
  public static func == (a: Matrix3, b: Matrix3) -> Bool {
    a.columns.0 == b.columns.0 && a.columns.1 == b.columns.1 && a.columns.2 == b.columns.2
  }

  /// Hashes every component.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(columns.0)
    hasher.combine(columns.1)
    hasher.combine(columns.2)
  }
}
