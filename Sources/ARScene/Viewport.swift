import ARMath
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How the captured (landscape) image is shown, after ARSCNView (DESIGN §3).
public enum Viewport: String, Hashable, Sendable, CaseIterable {
  /// The capture as is: output axes = capture camera axes.
  case landscape
  /// Rotated 90° clockwise as on an upright phone (home button down), aspect-fill cropped to
  /// the output size. Screen right = capture camera +Y, screen up = capture camera −X.
  case portrait

  /// The rotation from the viewport camera frame to the capture camera frame
  /// (`captureFromViewport`): identity for landscape, Rz(+π/2) for portrait, so that
  /// `worldFromViewportCamera = worldFromCamera · captureFromViewport` (ARSCNView's rolled
  /// `pointOfView`).
  public var captureFromViewport: Quaternion {
    switch self {
    case .landscape: return .identity
    case .portrait: return Quaternion(axis: .unitZ, angleRadians: .pi / 2)
    }
  }
}

extension CameraIntrinsics {
  /// The intrinsics of the capture image rotated for `viewport` (before any scaling):
  /// landscape unchanged; portrait `W' = H, H' = W, fx' = fy, fy' = fx, cx' = (H − 1) − cy,
  /// cy' = cx` (pixel (u, v) of the capture shows at ((H − 1) − v, u)).
  public func rotated(for viewport: Viewport) -> CameraIntrinsics {
    switch viewport {
    case .landscape: return self
    case .portrait:
      return CameraIntrinsics(
        fx: fy, fy: fx, cx: Double(height - 1) - cy, cy: cx, width: height, height: width)
    }
  }

  /// The output intrinsics for an image of `width`×`height` pixels showing this capture through
  /// `viewport` with aspect fill (uniform scale s = max(W/W', H/H'), centred crop), as ARSCNView
  /// does. With pixel centres at integers the edge coordinate is u + 0.5, so
  /// `cx_out = s·(cx' + 0.5) − (s·W' − W)/2 − 0.5` (likewise for cy).
  ///
  /// Precondition: `width > 0`, `height > 0` (trap).
  public func output(viewport: Viewport, width: Int, height: Int) -> CameraIntrinsics {
    precondition(width > 0 && height > 0, "output size must be positive")
    let r = rotated(for: viewport)
    let s = max(Double(width) / Double(r.width), Double(height) / Double(r.height))
    let offsetU = (s * Double(r.width) - Double(width)) / 2
    let offsetV = (s * Double(r.height) - Double(height)) / 2
    return CameraIntrinsics(
      fx: r.fx * s, fy: r.fy * s, cx: s * (r.cx + 0.5) - offsetU - 0.5,
      cy: s * (r.cy + 0.5) - offsetV - 0.5, width: width, height: height)
  }

  /// Horizontal field of view in radians: `2·atan(W / (2·fx))` (principal point assumed centred).
  public var horizontalFieldOfViewRadians: Double { 2 * atan(Double(width) / (2 * fx)) }

  /// Vertical field of view in radians: `2·atan(H / (2·fy))`.
  public var verticalFieldOfViewRadians: Double { 2 * atan(Double(height) / (2 * fy)) }
}
