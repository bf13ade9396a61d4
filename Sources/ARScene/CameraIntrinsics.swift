import ARMath

/// Pinhole intrinsics in pixels of one image, OpenCV pixel-centre convention (DESIGN §3).
///
/// Image frame: origin at the top-left, u right, v down, pixel centres at integer (u, v), so
/// pixel (0, 0) covers u ∈ [−0.5, 0.5). A camera-space point (x, y, −z) with z > 0 (camera
/// looks down −Z, +Y up) projects to `u = fx·x/z + cx`, `v = cy − fy·y/z`.
public struct CameraIntrinsics: Hashable, Sendable {
  /// Focal length along u, in pixels.
  public var fx: Double
  /// Focal length along v, in pixels.
  public var fy: Double
  /// Principal point u, in pixels.
  public var cx: Double
  /// Principal point v, in pixels.
  public var cy: Double
  /// Image width in pixels.
  public var width: Int
  /// Image height in pixels.
  public var height: Int

  /// Creates intrinsics.
  public init(fx: Double, fy: Double, cx: Double, cy: Double, width: Int, height: Int) {
    self.fx = fx
    self.fy = fy
    self.cx = cx
    self.cy = cy
    self.width = width
    self.height = height
  }

  /// ARSim's default capture intrinsics: a 1920×1440 landscape iPhone-like camera,
  /// fx = fy = 1600, cx = 959.5, cy = 719.5 (no real track file carries intrinsics).
  public static let defaultCapture = CameraIntrinsics(
    fx: 1600, fy: 1600, cx: 959.5, cy: 719.5, width: 1920, height: 1440)

  /// The pixel a camera-space point projects to, or `nil` when it is not in front of the camera
  /// (camera-space z ≥ 0).
  @inlinable public func project(_ p: Vector3) -> (u: Double, v: Double)? {
    let depth = -p.z
    guard depth > 0 else { return nil }
    return (fx * p.x / depth + cx, cy - fy * p.y / depth)
  }

  /// The camera-space ray through pixel (u, v): origin at the camera centre, direction
  /// `((u − cx)/fx, −(v − cy)/fy, −1)` (not unit: its −z component is 1, so `t` is depth).
  @inlinable public func ray(u: Double, v: Double) -> Ray {
    Ray(origin: .zero, direction: Vector3((u - cx) / fx, -(v - cy) / fy, -1))
  }
}
