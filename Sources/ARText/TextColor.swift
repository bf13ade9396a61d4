/// An 8-bit sRGB-encoded colour with straight (not premultiplied) alpha, as `Image` stores.
public struct TextColor: Hashable, Sendable {
  /// Red, 0…255.
  public var red: UInt8
  /// Green, 0…255.
  public var green: UInt8
  /// Blue, 0…255.
  public var blue: UInt8
  /// Opacity, 0 (transparent) … 255 (opaque).
  public var alpha: UInt8

  /// Creates a colour from 0…255 components.
  public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// Opaque black.
  public static let black = TextColor(red: 0, green: 0, blue: 0)
  /// Opaque white.
  public static let white = TextColor(red: 255, green: 255, blue: 255)
}
