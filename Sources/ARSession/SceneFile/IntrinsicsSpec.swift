import ARFormats
import ARScene
import ARSupport

/// Pinhole capture intrinsics as a scene file writes them, in pixels of the landscape capture
/// (DESIGN §3): the top-level `intrinsics` and every section's (a participant's) decode through
/// this one shape. Sizes are `JSONInteger`s, so `640.5` is reported with its line and field.
public struct IntrinsicsSpec: Decodable, Sendable {
  /// Focal length along u, pixels.
  public var fx: Double
  /// Focal length along v, pixels.
  public var fy: Double
  /// Principal point u, pixels (pixel centres at integers).
  public var cx: Double
  /// Principal point v, pixels.
  public var cy: Double
  /// Capture image width, pixels.
  public var width: JSONInteger
  /// Capture image height, pixels.
  public var height: JSONInteger

  /// The keys of an intrinsics object, for unknown-field warnings.
  public static let fields: Set<String> = ["fx", "fy", "cx", "cy", "width", "height"]
}

extension SceneSection {
  /// The intrinsics `spec` written at `field`, checked.
  /// - Throws: `InputError` naming `field` when fx or fy is not positive, a value is not
  ///   finite, or a size is outside 1…16384.
  public func intrinsics(_ spec: IntrinsicsSpec, field: String) throws -> CameraIntrinsics {
    guard [spec.fx, spec.fy, spec.cx, spec.cy].allSatisfy(\.isFinite), spec.fx > 0, spec.fy > 0
    else {
      throw error(field, "fx and fy must be positive and all values finite")
    }
    let width = spec.width.value
    let height = spec.height.value
    guard (1...16384).contains(width), (1...16384).contains(height) else {
      throw error(field, "width and height must be 1…16384")
    }
    return CameraIntrinsics(
      fx: spec.fx, fy: spec.fy, cx: spec.cx, cy: spec.cy, width: width, height: height)
  }
}
