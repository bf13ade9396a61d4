import ARScene

/// An 8-bit RGBA image, sRGB encoded, not premultiplied.
///
/// Layout: `height` rows of `width` pixels, top row first (image origin top-left, v down),
/// 4 bytes per pixel in the order R G B A. Pixel (u, v) starts at byte `(v · width + u) · 4`.
public struct Image: Hashable, Sendable {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// `width · height · 4` bytes.
  public var pixels: [UInt8]

  /// Creates an image filled with one colour (components 0…255).
  ///
  /// Precondition: `width ≥ 0`, `height ≥ 0` (trap).
  public init(width: Int, height: Int, fill: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 255)) {
    precondition(width >= 0 && height >= 0, "image size must not be negative")
    self.width = width
    self.height = height
    var p = [UInt8](repeating: 0, count: width * height * 4)
    for i in stride(from: 0, to: p.count, by: 4) {
      p[i] = fill.0
      p[i + 1] = fill.1
      p[i + 2] = fill.2
      p[i + 3] = fill.3
    }
    pixels = p
  }

  /// Wraps existing bytes; `nil` when `pixels.count != width · height · 4`.
  public init?(width: Int, height: Int, pixels: [UInt8]) {
    guard width >= 0, height >= 0, pixels.count == width * height * 4 else { return nil }
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// The RGBA bytes of pixel (u, v). Precondition: inside the image (trap).
  public subscript(u: Int, v: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
    get {
      precondition(u >= 0 && u < width && v >= 0 && v < height, "pixel outside the image")
      let i = (v * width + u) * 4
      return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
    set {
      precondition(u >= 0 && u < width && v >= 0 && v < height, "pixel outside the image")
      let i = (v * width + u) * 4
      pixels[i] = newValue.r
      pixels[i + 1] = newValue.g
      pixels[i + 2] = newValue.b
      pixels[i + 3] = newValue.a
    }
  }

  /// The image as a texture (same bytes), or `nil` when empty.
  public var texture: Texture? { Texture(width: width, height: height, pixels: pixels) }
}
