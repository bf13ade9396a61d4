import ARMath
import ARScene

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A sphere (an ellipsoid under non-uniform scale) prepared for exact per-sample ray casting.
///
/// Spaces: the camera ray through screen point (u, v) is `X(t) = t · d(u, v)` with
/// `d = ((u − cx)/fx, −(v − cy)/fy, −1)` in camera space, so `t` is the depth along −Z. Mapped
/// into node-local space by `nodeFromCamera` (affine) the ray is `o + t · (d₀ + u·d_u + v·d_v)`
/// with the same `t`, and it meets the local sphere |p| = r where
/// `a t² + 2 b t + k = 0`, `a = d·d`, `b = o·d`, `k = o·o − r²`. The ray hits when the
/// discriminant `b² − a k` is positive (a pixel centre exactly on the silhouette is not covered).
struct SpherePrimitive: Sendable {
  /// Camera centre in node-local space.
  var origin: SIMD3<Double>
  /// Local ray direction at (u, v) = (0, 0), and its change per unit u and per unit v.
  var direction0: SIMD3<Double>
  var directionPerU: SIMD3<Double>
  var directionPerV: SIMD3<Double>
  /// `|origin|² − r²`.
  var k: Double
  /// Columns of `nodeFromCamera`'s linear part: camera normal = (cᵢ · p_local)ᵢ (inverse
  /// transpose of `cameraFromNode`).
  var normalColumns: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)
  /// Camera-space centre, and 1 / the camera-space radius when `cameraFromNode` is a rotation
  /// × uniform scale (to 1e-12 relative), else 0: then the unit normal at camera point p is
  /// (p − centre) / radius, with no matrix (the shading fast path).
  var centre: SIMD3<Double>
  var inverseRadius: Double
  /// A lower bound of every visible depth (metres), for early depth rejection.
  var minDepth: Double
  /// Conservative screen bounds (may be infinite).
  var minU: Double
  var maxU: Double
  var minV: Double
  var maxV: Double

  /// Prepares a sphere of `radius` under `cameraFromNode`, or `nil` when nothing of it can be
  /// visible (behind the camera, beyond `far`, singular or non-finite transform, radius ≤ 0).
  init?(
    radius: Double, cameraFromNode: Matrix4, intrinsics: CameraIntrinsics, near: Double, far: Double
  ) {
    guard radius > 0, radius.isFinite, cameraFromNode.isFinite,
      let nodeFromCamera = cameraFromNode.inverse, nodeFromCamera.isFinite
    else { return nil }
    func simd(_ v: Vector3) -> SIMD3<Double> { SIMD3(v.x, v.y, v.z) }
    let fx = intrinsics.fx
    let fy = intrinsics.fy
    let linear0 = simd(nodeFromCamera.columns.0.xyz)
    let linear1 = simd(nodeFromCamera.columns.1.xyz)
    let linear2 = simd(nodeFromCamera.columns.2.xyz)
    origin = simd(nodeFromCamera.columns.3.xyz)
    // d(u, v) = (u/fx − cx/fx, −v/fy + cy/fy, −1) in camera space, mapped linearly.
    direction0 = linear0 * (-intrinsics.cx / fx) + linear1 * (intrinsics.cy / fy) - linear2
    directionPerU = linear0 * (1 / fx)
    directionPerV = linear1 * (-1 / fy)
    k = (origin * origin).sum() - radius * radius
    normalColumns = (linear0, linear1, linear2)

    // Bounding sphere in camera space: centre c, radius R ≥ r · σ_max(cameraFromNode), with
    // σ_max² bounded by the largest Gershgorin row sum of MᵀM (exact for rotation × uniform
    // scale).
    let m0 = simd(cameraFromNode.columns.0.xyz)
    let m1 = simd(cameraFromNode.columns.1.xyz)
    let m2 = simd(cameraFromNode.columns.2.xyz)
    func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }
    let g00 = dot(m0, m0)
    let g11 = dot(m1, m1)
    let g22 = dot(m2, m2)
    let g01 = abs(dot(m0, m1))
    let g02 = abs(dot(m0, m2))
    let g12 = abs(dot(m1, m2))
    let sigmaSquared = max(g00 + g01 + g02, g11 + g01 + g12, g22 + g02 + g12)
    let tolerance = 1e-12 * g00
    let isUniform =
      abs(g11 - g00) <= tolerance && abs(g22 - g00) <= tolerance && g01 <= tolerance
      && g02 <= tolerance && g12 <= tolerance
    inverseRadius = isUniform ? 1 / (radius * g00.squareRoot()) : 0
    centre = simd(cameraFromNode.columns.3.xyz)
    let boundingRadius = radius * sigmaSquared.squareRoot() * (1 + 1e-9)
    let centreDepth = -centre.z
    guard boundingRadius.isFinite, centreDepth + boundingRadius >= near,
      centreDepth - boundingRadius <= far
    else { return nil }
    minDepth = max(near, centreDepth - boundingRadius) * (1 - 1e-9) - 1e-12

    // Screen bounds of the bounding sphere's tangent cone, one axis at a time: the extreme u
    // lies on a plane through the u axis' pencil (x = s·z) tangent to the sphere, a 2-D problem
    // in the (x, depth) plane. Angles measured from −Z; ±π/2 or beyond means unbounded.
    func angularRange(_ lateral: Double) -> (Double, Double) {
      // In front of the camera plane by more than the radius, the tangents' slopes are the
      // roots of s²(z² − R²) − 2 s x z + x² − R² = 0 (no trigonometry; they equal the angles'
      // tangents below to rounding, which the pixel of margin absorbs).
      let z = centreDepth
      let lateralSquared = lateral * lateral
      let radiusSquared = boundingRadius * boundingRadius
      if z > boundingRadius * (1 + 1e-6) {
        let denominator = z * z - radiusSquared
        let root = boundingRadius * (lateralSquared + denominator).squareRoot()
        let slopes = ((lateral * z - root) / denominator, (lateral * z + root) / denominator)
        if slopes.0.isFinite, slopes.1.isFinite { return slopes }
      }
      let distance = (lateralSquared + centreDepth * centreDepth).squareRoot()
      guard distance > boundingRadius * (1 + 1e-9) else { return (-.infinity, .infinity) }
      let middle = atan2(lateral, centreDepth)
      let half = asin(boundingRadius / distance)
      let low = middle - half
      let high = middle + half
      return (
        low <= -Double.pi / 2 + 1e-9 ? -.infinity : tan(low),
        high >= Double.pi / 2 - 1e-9 ? .infinity : tan(high)
      )
    }
    let (lowX, highX) = angularRange(centre.x)
    let (lowY, highY) = angularRange(centre.y)
    // One pixel of margin for rounding (and NaN-free: infinities stay infinite).
    minU = fx * lowX + intrinsics.cx - 1
    maxU = fx * highX + intrinsics.cx + 1
    minV = intrinsics.cy - fy * highY - 1
    maxV = intrinsics.cy - fy * lowY + 1
  }

  /// The local ray direction on sample row v (the u-independent part).
  @inline(__always) func rowDirection(v: Double) -> SIMD3<Double> {
    direction0 + directionPerV * v
  }

  /// The ray-sphere quadratic's coefficients on sample row v, as polynomials in u: with
  /// d(u) = d_row + u·d_u, `a(u) = d·d = a₀ + u (a₁ + u a₂)` and `b(u) = o·d = b₀ + u b₁`.
  @inline(__always) func row(v: Double) -> SphereRow {
    let dRow = rowDirection(v: v)
    return SphereRow(
      a0: (dRow * dRow).sum(), a1: 2 * (dRow * directionPerU).sum(),
      a2: (directionPerU * directionPerU).sum(), b0: (origin * dRow).sum(),
      b1: (origin * directionPerU).sum(), k: k)
  }

  /// The depth (metres along −Z) at which the ray through (u, v) first meets the sphere (see
  /// `SphereRow.depth`).
  @inline(__always) func depth(u: Double, v: Double, near: Double, far: Double) -> Double? {
    row(v: v).depth(u: u, near: near, far: far)
  }

  /// The unit camera-space normal at depth t on the ray through (u, v), facing the viewer.
  @inline(__always) func normal(
    u: Double, rowDirection dRow: SIMD3<Double>, depth t: Double, view: SIMD3<Double>
  ) -> SIMD3<Double> {
    let p = origin + (dRow + directionPerU * u) * t
    var n = SIMD3(
      (normalColumns.0 * p).sum(), (normalColumns.1 * p).sum(), (normalColumns.2 * p).sum())
    let length = (n * n).sum().squareRoot()
    n = length > 0 ? n / length : view
    return (n * view).sum() < 0 ? -n : n
  }
}

/// A sphere's ray quadratic `a t² + 2 b t + k = 0` on one sample row (`SpherePrimitive.row`).
struct SphereRow {
  var a0: Double
  var a1: Double
  var a2: Double
  var b0: Double
  var b1: Double
  var k: Double

  /// The depth at which the ray through (u, v) first meets the sphere at or beyond `near` (the
  /// far side when the near side is clipped), or `nil`; depths beyond `far` return `nil`.
  @inline(__always) func depth(u: Double, near: Double, far: Double) -> Double? {
    let a = a0 + u * (a1 + u * a2)
    let b = b0 + u * b1
    let discriminant = b * b - a * k
    guard discriminant > 0 else { return nil }
    let root = discriminant.squareRoot()
    let nearHit = (-b - root) / a
    if nearHit >= near { return nearHit <= far ? nearHit : nil }
    let farHit = (-b + root) / a
    return farHit >= near && farHit <= far ? farHit : nil
  }

  /// `depth(u:near:far:)` for two samples at once, lane by lane (same operations, so the same
  /// bits); +∞ where that returns `nil`.
  @inline(__always) func depths(u: SIMD2<Double>, near: Double, far: Double) -> SIMD2<Double> {
    let a = a0 + u * (a1 + u * a2)
    let b = b0 + u * b1
    let discriminant = b * b - a * k
    let hit0 = discriminant[0] > 0
    let hit1 = discriminant[1] > 0
    guard hit0 || hit1 else { return SIMD2(repeating: .infinity) }
    // Lanes that miss take the root of |discriminant| (their result is discarded): a provably
    // non-negative argument lets the square root compile to one vector instruction.
    let root = SIMD2(abs(discriminant[0]), abs(discriminant[1])).squareRoot()
    let nearHit = (-b - root) / a
    if hit0 && hit1 && nearHit[0] >= near && nearHit[1] >= near && nearHit[0] <= far
      && nearHit[1] <= far
    {
      return nearHit
    }
    return SphereRow.clippedDepths(
      nearHit: nearHit, b: b, root: root, a: a, hit0: hit0, hit1: hit1, near: near, far: far)
  }

  /// The uncommon lanes of `depths`: a miss, or the near root outside near…far.
  @inline(never) static func clippedDepths(
    nearHit: SIMD2<Double>, b: SIMD2<Double>, root: SIMD2<Double>, a: SIMD2<Double>,
    hit0: Bool, hit1: Bool, near: Double, far: Double
  ) -> SIMD2<Double> {
    func lane(_ l: Int, _ hit: Bool) -> Double {
      guard hit else { return .infinity }
      if nearHit[l] >= near { return nearHit[l] <= far ? nearHit[l] : .infinity }
      let farHit = (-b[l] + root[l]) / a[l]
      return farHit >= near && farHit <= far ? farHit : .infinity
    }
    return SIMD2(lane(0, hit0), lane(1, hit1))
  }

  /// The range of u on this row where the discriminant can be positive, widened by `margin`,
  /// or `nil` when the row misses the sphere. Unbounded rows give infinite ends.
  @inline(__always) func span(margin: Double) -> (Double, Double)? {
    // D(u) = b(u)² − k a(u) = qa u² + 2 qb u + qc.
    let qa = b1 * b1 - k * a2
    let qb = b0 * b1 - k * (a1 / 2)
    let qc = b0 * b0 - k * a0
    guard qa < 0 else { return (-.infinity, .infinity) }
    let discriminant = qb * qb - qa * qc
    guard discriminant > 0 else { return nil }
    let root = discriminant.squareRoot()
    let u1 = (-qb + root) / qa
    let u2 = (-qb - root) / qa
    return (min(u1, u2) - margin, max(u1, u2) + margin)
  }
}
