/// Triangles of the built-in primitives with texture coordinates, in the conventions of
/// SceneKit's `SCNBox`/`SCNPlane` and ARSim's node geometry (Documentation/Rendering.md,
/// "Triangles"): each face a quad TL, BL, BR, TR seen from outside, uv (0, 0) at TL and (1, 1)
/// at BR, split along TL–BR, counter-clockwise from outside.
enum PrimitiveTriangles {
  typealias Corner = (SIMD3<Double>, SIMD2<Double>)

  static func quad(centre: SIMD3<Double>, right: SIMD3<Double>, up: SIMD3<Double>) -> [Corner] {
    let topLeft = (centre - right + up, SIMD2<Double>(0, 0))
    let bottomLeft = (centre - right - up, SIMD2<Double>(0, 1))
    let bottomRight = (centre + right - up, SIMD2<Double>(1, 1))
    let topRight = (centre + right + up, SIMD2<Double>(1, 0))
    return [topLeft, bottomLeft, bottomRight, topLeft, bottomRight, topRight]
  }

  /// A plane in local XY facing +Z, centred at the origin.
  static func plane(width: Double, height: Double) -> [Corner] {
    quad(centre: .zero, right: SIMD3(width / 2, 0, 0), up: SIMD3(0, height / 2, 0))
  }

  /// A box centred at the origin: faces +Z, −Z, +X, −X, +Y, −Y.
  static func box(width: Double, height: Double, length: Double) -> [Corner] {
    let x = width / 2
    let y = height / 2
    let z = length / 2
    return quad(centre: SIMD3(0, 0, z), right: SIMD3(x, 0, 0), up: SIMD3(0, y, 0))
      + quad(centre: SIMD3(0, 0, -z), right: SIMD3(-x, 0, 0), up: SIMD3(0, y, 0))
      + quad(centre: SIMD3(x, 0, 0), right: SIMD3(0, 0, -z), up: SIMD3(0, y, 0))
      + quad(centre: SIMD3(-x, 0, 0), right: SIMD3(0, 0, z), up: SIMD3(0, y, 0))
      + quad(centre: SIMD3(0, y, 0), right: SIMD3(x, 0, 0), up: SIMD3(0, 0, -z))
      + quad(centre: SIMD3(0, -y, 0), right: SIMD3(x, 0, 0), up: SIMD3(0, 0, z))
  }
}
