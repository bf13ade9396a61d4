/// A depth map in millimetres along the camera's −Z axis (DESIGN §7), one `UInt16` per pixel.
///
/// Layout: `height` rows of `width` values, top row first. 0 = no surface; values saturate at
/// 65535 (65.535 m). Written as a 16-bit grayscale PNG.
public struct DepthImage: Hashable, Sendable {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// `width · height` depths in millimetres, row-major from the top.
  public var millimetres: [UInt16]

  /// Creates a depth map of zeros (no surface).
  public init(width: Int, height: Int) {
    precondition(width >= 0 && height >= 0, "image size must not be negative")
    self.width = width
    self.height = height
    millimetres = [UInt16](repeating: 0, count: width * height)
  }

  /// Wraps existing values; `nil` when the count disagrees with the size.
  public init?(width: Int, height: Int, millimetres: [UInt16]) {
    guard width >= 0, height >= 0, millimetres.count == width * height else { return nil }
    self.width = width
    self.height = height
    self.millimetres = millimetres
  }

  /// The stored value for a depth in metres: round(depth · 1000), 0 for no surface
  /// (non-finite or ≤ 0), clamped to 1…65535 otherwise so a surface never reads as "none".
  @inlinable public static func millimetres(fromMetres depth: Double) -> UInt16 {
    guard depth.isFinite, depth > 0 else { return 0 }
    let mm = (depth * 1000).rounded()
    return UInt16(max(1, min(65535, mm)))
  }
}
