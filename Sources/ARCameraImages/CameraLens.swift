import ARScene

#if canImport(Glibc)
  import Glibc
#endif

/// How a lens bends rays away from the pinhole model, on normalised image coordinates
/// (x, y) = ((u − cx)/fx, (v − cy)/fy) with v down (OpenCV's convention).
public enum LensDistortion: Hashable, Sendable {
  /// A pinhole: no distortion.
  case none
  /// Brown–Conrady radial-tangential, OpenCV's `distCoeffs` order (k1, k2, p1, p2, k3), as
  /// TUM's and EuRoC's (`radial-tangential`, k3 = 0) calibrations write it:
  /// r² = x² + y², x′ = x(1 + k1r² + k2r⁴ + k3r⁶) + 2p1xy + p2(r² + 2x²),
  /// y′ = y(1 + k1r² + k2r⁴ + k3r⁶) + p1(r² + 2y²) + 2p2xy.
  case radialTangential(k1: Double, k2: Double, p1: Double, p2: Double, k3: Double)
  /// Equidistant fisheye, OpenCV's `cv::fisheye` (Kannala–Brandt with four terms):
  /// θ = atan r, θd = θ(1 + k1θ² + k2θ⁴ + k3θ⁶ + k4θ⁸), (x′, y′) = (θd / r)(x, y).
  case equidistant(k1: Double, k2: Double, k3: Double, k4: Double)

  /// The distorted normalised point of an undistorted one.
  @inline(__always) public func distort(x: Double, y: Double) -> (x: Double, y: Double) {
    switch self {
    case .none: return (x, y)
    case .radialTangential(let k1, let k2, let p1, let p2, let k3):
      let r2 = x * x + y * y
      let radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3))
      return (
        x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x),
        y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
      )
    case .equidistant(let k1, let k2, let k3, let k4):
      let r = (x * x + y * y).squareRoot()
      guard r > 1e-12 else { return (x, y) }
      let theta = atan(r)
      let t2 = theta * theta
      let thetaD = theta * (1 + t2 * (k1 + t2 * (k2 + t2 * (k3 + t2 * k4))))
      let scale = thetaD / r
      return (x * scale, y * scale)
    }
  }
}

/// The lens recorded images were taken with: pinhole intrinsics in the images' pixels (OpenCV
/// pixel-centre convention, `CameraIntrinsics`) and its distortion.
public struct CameraLens: Hashable, Sendable {
  /// Intrinsics of the recorded images (their declared size).
  public var intrinsics: CameraIntrinsics
  /// The distortion, `.none` for a pinhole.
  public var distortion: LensDistortion

  /// Creates a lens.
  public init(intrinsics: CameraIntrinsics, distortion: LensDistortion = .none) {
    self.intrinsics = intrinsics
    self.distortion = distortion
  }

  /// The same lens on images of another size: focal lengths and principal point scaled per
  /// axis, pixel centres kept (`c′ = (c + 0.5)·s − 0.5`).
  public func scaled(toWidth width: Int, height: Int) -> CameraLens {
    let k = intrinsics
    let sx = Double(width) / Double(k.width)
    let sy = Double(height) / Double(k.height)
    return CameraLens(
      intrinsics: CameraIntrinsics(
        fx: k.fx * sx, fy: k.fy * sy, cx: (k.cx + 0.5) * sx - 0.5, cy: (k.cy + 0.5) * sy - 0.5,
        width: width, height: height),
      distortion: distortion)
  }
}
