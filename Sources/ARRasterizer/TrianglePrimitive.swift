import ARMath
import ARScene

/// A triangle of a box or plane, clipped at the near plane and projected, ready to rasterize.
///
/// Depth and texture coordinates are not interpolated in screen space: the sample's camera ray
/// `X = t · d(u, v)` (camera space, `d = ((u − cx)/fx, −(v − cy)/fy, −1)`) meets the triangle's
/// plane `n · X = h` at depth `t = h / (n · d)`, and uv is an affine function of the camera-space
/// point on that plane. Both are therefore exact and perspective-correct.
struct TrianglePrimitive: Sendable {
  /// The clipped, projected outline with the top-left fill rule.
  var outline: ScreenPolygon
  /// Camera-space plane `n · X = h` (n not unit).
  var planeNormal: SIMD3<Double>
  var planeOffset: Double
  /// Unit camera-space shading normal, facing the viewer.
  var shadingNormal: SIMD3<Double>
  /// uv at camera point X: `uvOrigin + (gradientU · (X − anchor), gradientV · (X − anchor))`.
  var anchor: SIMD3<Double>
  var uvOrigin: SIMD2<Double>
  var gradientU: SIMD3<Double>
  var gradientV: SIMD3<Double>

  /// Depth (metres along −Z) of the plane on the ray with camera direction `d`, or `nil` when
  /// not finite and positive.
  @inline(__always) func depth(direction d: SIMD3<Double>) -> Double? {
    let t = planeOffset / (planeNormal * d).sum()
    return t.isFinite && t > 0 ? t : nil
  }

  /// `depth(direction:)` for the rays `(dx, dy, −1)`, lane by lane (the same operations,
  /// so the same bits), rounded to Float; +∞ where that is `nil` or beyond `far`.
  @inline(__always) func depths(dx: DoubleLanes, dy: Double, far: Double) -> FloatLanes {
    // (n * d).sum() = (n.x·dx + n.y·dy) + n.z·(−1), in that order.
    let denominator =
      (planeNormal.x * dx + DoubleLanes(repeating: planeNormal.y * dy))
      - DoubleLanes(repeating: planeNormal.z)
    let t = planeOffset / denominator
    let valid = (t .> 0) .& (t .< .infinity) .& (t .<= far)
    return select(valid, FloatLanes(narrowing: t), FloatLanes(repeating: .infinity))
  }

  /// Texture coordinates at camera-space point `x`.
  @inline(__always) func uv(at x: SIMD3<Double>) -> SIMD2<Double> {
    let r = x - anchor
    return uvOrigin + SIMD2((gradientU * r).sum(), (gradientV * r).sum())
  }
}

/// A camera-space vertex with its texture coordinates.
struct TriangleVertex {
  var position: SIMD3<Double>
  var uv: SIMD2<Double>
}

extension TrianglePrimitive {
  /// Clips the camera-space triangle (a, b, c) at depth `near`, culls it when back-facing and
  /// not `doubleSided`, and projects it; `nil` when nothing remains.
  ///
  /// Front faces wind counter-clockwise seen from outside (SceneKit). Back-facing is decided in
  /// camera space (`n · a ≥ 0` with the eye at the origin), before projection, so it also
  /// holds for triangles crossing the camera plane.
  init?(
    _ a: TriangleVertex, _ b: TriangleVertex, _ c: TriangleVertex, doubleSided: Bool,
    intrinsics: CameraIntrinsics, near: Double
  ) {
    let p0 = a.position
    let p1 = b.position
    let p2 = c.position
    let e1 = p1 - p0
    let e2 = p2 - p0
    let n = SIMD3(
      e1.y * e2.z - e1.z * e2.y, e1.z * e2.x - e1.x * e2.z, e1.x * e2.y - e1.y * e2.x)
    let h = (n * p0).sum()
    guard h.isFinite, h != 0, (n * n).sum() > 0 else { return nil }
    let frontFacing = h < 0
    guard frontFacing || doubleSided else { return nil }
    planeNormal = n
    planeOffset = h
    let unit = n / (n * n).sum().squareRoot()
    shadingNormal = frontFacing ? unit : -unit

    // Attribute gradients in the plane: g = α e1 + β e2 with g·e1 = Δ₁, g·e2 = Δ₂.
    let g11 = (e1 * e1).sum()
    let g12 = (e1 * e2).sum()
    let g22 = (e2 * e2).sum()
    let determinant = g11 * g22 - g12 * g12
    guard determinant > 0, determinant.isFinite else { return nil }
    func gradient(_ d1: Double, _ d2: Double) -> SIMD3<Double> {
      let alpha = (d1 * g22 - d2 * g12) / determinant
      let beta = (d2 * g11 - d1 * g12) / determinant
      return e1 * alpha + e2 * beta
    }
    anchor = p0
    uvOrigin = a.uv
    gradientU = gradient(b.uv.x - a.uv.x, c.uv.x - a.uv.x)
    gradientV = gradient(b.uv.y - a.uv.y, c.uv.y - a.uv.y)

    // Near-plane clipping (Sutherland–Hodgman against depth −z ≥ near, the homogeneous
    // w ≥ near plane of a perspective projection), then the perspective divide. A triangle
    // clipped by one plane keeps at most four corners: fixed storage, no allocation.
    var screen = ((u: 0.0, v: 0.0), (u: 0.0, v: 0.0), (u: 0.0, v: 0.0), (u: 0.0, v: 0.0))
    var count = 0
    @inline(__always) func append(_ p: SIMD3<Double>) {
      let depth = -p.z
      let projected = (
        u: intrinsics.fx * p.x / depth + intrinsics.cx,
        v: intrinsics.cy - intrinsics.fy * p.y / depth
      )
      switch count {
      case 0: screen.0 = projected
      case 1: screen.1 = projected
      case 2: screen.2 = projected
      default: screen.3 = projected
      }
      count += 1
    }
    TrianglePrimitive.clip(p0, p1, p2, near: near, append)
    guard count >= 3, let outline = ScreenPolygon(count: count, screen) else { return nil }
    self.outline = outline
  }

  /// The part of camera-space triangle (p0, p1, p2) at depth ≥ `near` (Sutherland–Hodgman),
  /// each remaining corner (at most four) passed to `body` in order, without an array.
  ///
  /// An edge's crossing point is computed from its endpoints in a canonical order, so two
  /// triangles sharing an edge get the bit-identical point and stay watertight after clipping.
  @inline(__always) static func clip(
    _ p0: SIMD3<Double>, _ p1: SIMD3<Double>, _ p2: SIMD3<Double>, near: Double,
    _ body: (SIMD3<Double>) -> Void
  ) {
    @inline(__always) func edge(_ a: SIMD3<Double>, _ b: SIMD3<Double>) {
      let aInside = -a.z >= near
      let bInside = -b.z >= near
      if aInside { body(a) }
      if aInside != bInside { body(crossing(a, b, near: near)) }
    }
    edge(p0, p1)
    edge(p1, p2)
    edge(p2, p0)
  }

  /// Where edge (a, b) crosses depth `near`, from its endpoints in a canonical order.
  @inline(__always) static func crossing(_ a: SIMD3<Double>, _ b: SIMD3<Double>, near: Double)
    -> SIMD3<Double>
  {
    let swapped = (b.x, b.y, b.z) < (a.x, a.y, a.z)
    let (lo, hi) = swapped ? (b, a) : (a, b)
    let dLo = -lo.z - near
    let dHi = -hi.z - near
    let s = dLo / (dLo - dHi)
    var crossing = lo + (hi - lo) * s
    crossing.z = -near
    return crossing
  }

  /// The triangles of a box or plane (node-local vertices with uv), front faces counter-
  /// clockwise seen from outside (`ShapeTriangles`); none for a sphere.
  static func localTriangles(of shape: Shape) -> [(TriangleVertex, TriangleVertex, TriangleVertex)]
  {
    let corners = ShapeTriangles.corners(of: shape)
    func vertex(_ k: Int) -> TriangleVertex {
      TriangleVertex(position: corners[k].0, uv: corners[k].1)
    }
    return stride(from: 0, to: corners.count, by: 3).map { k in
      (vertex(k), vertex(k + 1), vertex(k + 2))
    }
  }
}
