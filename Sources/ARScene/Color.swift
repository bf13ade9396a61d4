/// An RGBA colour: 8-bit sRGB-encoded values stored as `Double` in 0…1 (DESIGN §3: shading works
/// on encoded values).
public struct Color: Hashable, Sendable, CustomStringConvertible {
  /// Red, 0…1.
  public var red: Double
  /// Green, 0…1.
  public var green: Double
  /// Blue, 0…1.
  public var blue: Double
  /// Alpha (coverage/opacity), 0…1.
  public var alpha: Double

  /// Creates a colour from components in 0…1 (not clamped: callers validate input).
  public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// The components `[r, g, b, a]`.
  public var components: [Double] { [red, green, blue, alpha] }

  /// A description such as `rgba(0.0, 0.478, 1.0, 1.0)`.
  public var description: String { "rgba(\(red), \(green), \(blue), \(alpha))" }

  /// Opaque white.
  public static let white = Color(red: 1, green: 1, blue: 1)
  /// Opaque black.
  public static let black = Color(red: 0, green: 0, blue: 0)
  /// UIKit's light-mode `systemBlue`, (0, 122, 255)/255: the remote-assist app's default line
  /// colour.
  public static let systemBlue = Color(red: 0, green: 122.0 / 255.0, blue: 1)
  /// SceneKit's default diffuse: white.
  public static let sceneKitDefaultDiffuse = white
}
