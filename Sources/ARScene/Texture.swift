/// An RGBA8 image used as a material's diffuse contents.
///
/// Layout: `height` rows of `width` pixels, top row first, 4 bytes per pixel R G B A, sRGB
/// encoded, no premultiplication. Texture coordinate (0, 0) is the top-left corner of the
/// top-left texel; (1, 1) the bottom-right corner of the bottom-right texel.
public struct Texture: Hashable, Sendable {
  /// Width in pixels (> 0).
  public let width: Int
  /// Height in pixels (> 0).
  public let height: Int
  /// `width * height * 4` bytes.
  public let pixels: [UInt8]

  /// Creates a texture; returns `nil` when the sizes and the byte count disagree.
  public init?(width: Int, height: Int, pixels: [UInt8]) {
    guard width > 0, height > 0, pixels.count == width * height * 4 else { return nil }
    self.width = width
    self.height = height
    self.pixels = pixels
  }
}
