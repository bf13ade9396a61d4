import ARMath
import ARScene

/// The view frustum as four side planes and the near plane in camera space, for leaving out
/// environment triangles that cannot cover a sample.
///
/// A camera-space point X = (x, y, z) at depth d = −z projects to u = fx·x/d + cx and
/// v = cy − fy·y/d; samples lie in u, v ∈ [−½, size − ½]. Each side of the image, widened by
/// one pixel, is a linear function of X that is negative outside it (left: fx·x + (cx + 1)·d).
/// A triangle (or box) all of whose corners are outside one plane lies outside it entirely,
/// clipped or not, so it covers no sample: leaving it out changes no output bit. The pixel
/// of margin (times the depth, at least `near`) is far beyond the rounding of the transform.
struct EnvironmentViewBounds {
  let fx: Double
  let fy: Double
  let left: Double
  let right: Double
  let top: Double
  let bottom: Double
  let near: Double

  init(intrinsics: CameraIntrinsics, near: Double) {
    fx = intrinsics.fx
    fy = intrinsics.fy
    left = intrinsics.cx + 1
    right = intrinsics.cx - Double(intrinsics.width)
    top = intrinsics.cy + 1
    bottom = intrinsics.cy - Double(intrinsics.height)
    self.near = near
  }

  /// Per plane, a mask of which corners are outside it (bit 0 left, 1 right, 2 top, 3 bottom,
  /// 4 in front of the near plane); NaN is never outside.
  @inline(__always) func outside(_ p: SIMD3<Double>) -> Int {
    let d = -p.z
    var mask = 0
    if fx * p.x + left * d < 0 { mask |= 1 }
    if fx * p.x + right * d > 0 { mask |= 2 }
    if top * d - fy * p.y < 0 { mask |= 4 }
    if bottom * d - fy * p.y > 0 { mask |= 8 }
    if d < near { mask |= 16 }
    return mask
  }

  /// Whether camera-space triangle (a, b, c) may cover a sample: not all corners outside
  /// one plane.
  @inline(__always) func mayShow(_ a: SIMD3<Double>, _ b: SIMD3<Double>, _ c: SIMD3<Double>)
    -> Bool
  {
    outside(a) & outside(b) & outside(c) == 0
  }

  /// Whether the world-space box `low`…`high` may show in the camera: its eight corners
  /// mapped by `cameraFromWorld`, not all outside one plane.
  @inline(__always) func mayShow(
    low: SIMD3<Double>, high: SIMD3<Double>, _ cameraFromWorld: Matrix4
  ) -> Bool {
    var common = 31
    for corner in 0..<8 {
      let p = SIMD3(
        corner & 1 == 0 ? low.x : high.x, corner & 2 == 0 ? low.y : high.y,
        corner & 4 == 0 ? low.z : high.z)
      let c = cameraFromWorld.transformPoint(Vector3(p.x, p.y, p.z))
      common &= outside(SIMD3(c.x, c.y, c.z))
      if common == 0 { return true }
    }
    return false
  }
}
