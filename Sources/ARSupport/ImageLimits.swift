/// The largest image ARSim writes and reads back: 16384 px a side (libpng's user limit) and
/// 64 Mi pixels (256 MiB as RGBA8). A frame it renders must be one its own `compare`, `video`
/// and `report` can decode, so the scene's output sizes and the PNG decoder share these.
public enum ImageLimits {
  /// Pixels per side.
  public static let maximumSide = 16384
  /// Pixels in all (64 Mi).
  public static let maximumPixels = 64 << 20
}

extension ImageLimits {
  /// The reason for an output size over `maximumPixels`.
  public static func overPixelLimit(_ width: Int, _ height: Int) -> String {
    "\(width)×\(height) is over \(maximumPixels >> 20) Mi pixels, the largest frame ARSim can "
      + "read back (compare, video, report)"
  }
}

extension ImageLimits {
  /// Why an image of `width` × `height` pixels read from a file cannot be used: empty (a side
  /// of 0) or over the limits; nil when it can.
  public static func sizeProblem(_ width: Int, _ height: Int) -> String? {
    if width == 0 || height == 0 { return "image of \(width)×\(height) pixels is empty" }
    guard width > maximumSide || height > maximumSide || width * height > maximumPixels else {
      return nil
    }
    return "image of \(width)×\(height) pixels is over the limit (\(maximumSide) a side, "
      + "\(maximumPixels >> 20) Mi pixels)"
  }
}
