/// The triangles of a box or plane in node-local coordinates with texture coordinates, in the
/// conventions of SceneKit's `SCNBox` and `SCNPlane` (Documentation/Rendering.md,
/// "Triangles"): each face a quad TL, BL, BR, TR seen from outside, uv (0, 0) at TL and (1, 1)
/// at BR, split along TL–BR, counter-clockwise from outside. The rasterizer draws nodes' boxes
/// and planes from these; environments bake their built-in primitives from them.
public enum ShapeTriangles {
  /// A triangle corner: node-local position (metres before scale) and texture coordinate.
  public typealias Corner = (SIMD3<Double>, SIMD2<Double>)

  /// The corners of `shape`'s triangles, three per triangle: a plane's 2 (its face +Z), a
  /// box's 12 (faces +Z, −Z, +X, −X, +Y, −Y, two triangles each); none for a sphere, which is
  /// drawn exactly.
  public static func corners(of shape: Shape) -> [Corner] {
    switch shape {
    case .sphere:
      return []
    case .plane(let plane):
      return quad(
        centre: .zero, right: SIMD3(plane.width / 2, 0, 0), up: SIMD3(0, plane.height / 2, 0))
    case .box(let box):
      let x = box.width / 2
      let y = box.height / 2
      let z = box.length / 2
      // right × up points outward.
      return quad(centre: SIMD3(0, 0, z), right: SIMD3(x, 0, 0), up: SIMD3(0, y, 0))
        + quad(centre: SIMD3(0, 0, -z), right: SIMD3(-x, 0, 0), up: SIMD3(0, y, 0))
        + quad(centre: SIMD3(x, 0, 0), right: SIMD3(0, 0, -z), up: SIMD3(0, y, 0))
        + quad(centre: SIMD3(-x, 0, 0), right: SIMD3(0, 0, z), up: SIMD3(0, y, 0))
        + quad(centre: SIMD3(0, y, 0), right: SIMD3(x, 0, 0), up: SIMD3(0, 0, -z))
        + quad(centre: SIMD3(0, -y, 0), right: SIMD3(x, 0, 0), up: SIMD3(0, 0, z))
    }
  }

  /// One face, corners centre ± right ± up: triangles TL, BL, BR and TL, BR, TR.
  static func quad(centre: SIMD3<Double>, right: SIMD3<Double>, up: SIMD3<Double>) -> [Corner] {
    let topLeft = (centre - right + up, SIMD2<Double>(0, 0))
    let bottomLeft = (centre - right - up, SIMD2<Double>(0, 1))
    let bottomRight = (centre + right - up, SIMD2<Double>(1, 1))
    let topRight = (centre + right + up, SIMD2<Double>(1, 0))
    return [topLeft, bottomLeft, bottomRight, topLeft, bottomRight, topRight]
  }
}
