/// A 4×4 matrix of `Double`, column-major like GLM and `simd_float4x4`.
///
/// `columns.3` holds the translation of an affine transform. Multiplication composes right to
/// left: `(a * b).transformPoint(p) == a.transformPoint(b.transformPoint(p))`, so frames read
/// `worldFromCamera = worldFromNode * nodeFromCamera`.
public struct Matrix4: Hashable, Sendable {
  /// The four columns.
  public var columns: (Vector4, Vector4, Vector4, Vector4)

  /// Creates a matrix from its columns.
  @inlinable public init(_ c0: Vector4, _ c1: Vector4, _ c2: Vector4, _ c3: Vector4) {
    columns = (c0, c1, c2, c3)
  }

  /// Creates a matrix from 16 numbers in column-major order.
  ///
  /// Precondition: `elements.count == 16` (trap otherwise).
  public init(columnMajor elements: [Double]) {
    precondition(elements.count == 16, "Matrix4 needs 16 elements")
    let e = elements
    self.init(
      Vector4(e[0], e[1], e[2], e[3]), Vector4(e[4], e[5], e[6], e[7]),
      Vector4(e[8], e[9], e[10], e[11]), Vector4(e[12], e[13], e[14], e[15]))
  }

  /// Creates a matrix from 16 numbers in row-major order (how most text formats print them).
  ///
  /// Precondition: `elements.count == 16` (trap otherwise).
  public init(rowMajor e: [Double]) {
    precondition(e.count == 16, "Matrix4 needs 16 elements")
    self.init(
      Vector4(e[0], e[4], e[8], e[12]), Vector4(e[1], e[5], e[9], e[13]),
      Vector4(e[2], e[6], e[10], e[14]), Vector4(e[3], e[7], e[11], e[15]))
  }

  /// The identity matrix.
  public static let identity = Matrix4(
    Vector4(1, 0, 0, 0), Vector4(0, 1, 0, 0), Vector4(0, 0, 1, 0), Vector4(0, 0, 0, 1))

  /// A translation by `t`.
  public init(translation t: Vector3) {
    self = .identity
    columns.3 = Vector4(t, 1)
  }

  /// A non-uniform scale along the axes.
  public init(scale s: Vector3) {
    self.init(
      Vector4(s.x, 0, 0, 0), Vector4(0, s.y, 0, 0), Vector4(0, 0, s.z, 0), Vector4(0, 0, 0, 1))
  }

  /// An affine matrix whose upper-left 3×3 is `rotation` and whose translation is `translation`.
  public init(rotation: Matrix3, translation: Vector3 = .zero) {
    self.init(
      Vector4(rotation.columns.0, 0), Vector4(rotation.columns.1, 0),
      Vector4(rotation.columns.2, 0), Vector4(translation, 1))
  }

  /// The 16 elements in column-major order.
  public var columnMajorElements: [Double] {
    let (a, b, c, d) = columns
    return [a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w, c.x, c.y, c.z, c.w, d.x, d.y, d.z, d.w]
  }

  /// The translation part (`columns.3.xyz`).
  @inlinable public var translation: Vector3 {
    get { columns.3.xyz }
    set { columns.3 = Vector4(newValue, columns.3.w) }
  }

  /// The upper-left 3×3 block.
  @inlinable public var upperLeft3x3: Matrix3 {
    Matrix3(columns.0.xyz, columns.1.xyz, columns.2.xyz)
  }

  /// Element at `row`, `column` (both 0…3).
  @inlinable public subscript(row: Int, column: Int) -> Double {
    let c: Vector4
    switch column {
    case 0: c = columns.0
    case 1: c = columns.1
    case 2: c = columns.2
    default: c = columns.3
    }
    switch row {
    case 0: return c.x
    case 1: return c.y
    case 2: return c.z
    default: return c.w
    }
  }

  /// `self · v` for a homogeneous vector.
  @inlinable public func multiply(_ v: Vector4) -> Vector4 {
    columns.0 * v.x + columns.1 * v.y + columns.2 * v.z + columns.3 * v.w
  }

  /// Maps a point (w = 1). No perspective divide: use on affine matrices.
  @inlinable public func transformPoint(_ p: Vector3) -> Vector3 {
    (columns.0 * p.x + columns.1 * p.y + columns.2 * p.z + columns.3).xyz
  }

  /// Maps a direction (w = 0): translation ignored.
  @inlinable public func transformDirection(_ d: Vector3) -> Vector3 {
    (columns.0 * d.x + columns.1 * d.y + columns.2 * d.z).xyz
  }

  /// Whether every element is finite. Per column, without the array of `columnMajorElements`
  /// (the renderer asks twice per sphere per frame).
  @inlinable public var isFinite: Bool {
    @inline(__always) func finite(_ c: Vector4) -> Bool {
      c.x.isFinite && c.y.isFinite && c.z.isFinite && c.w.isFinite
    }
    return finite(columns.0) && finite(columns.1) && finite(columns.2) && finite(columns.3)
  }

  /// Exact equality of every component (IEEE: NaN ≠ NaN, 0 = −0).
  @inlinable public static func == (a: Matrix4, b: Matrix4) -> Bool {
    a.columns.0 == b.columns.0 && a.columns.1 == b.columns.1 && a.columns.2 == b.columns.2
      && a.columns.3 == b.columns.3
  }

  /// Hashes every component.
  public func hash(into hasher: inout Hasher) { hasher.combine(columnMajorElements) }
}
