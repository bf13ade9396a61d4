import ARMath

/// A light attached to a node, as `SCNLight` (directional and ambient types only).
public struct Light: Hashable, Sendable {
  /// The kind of light.
  public enum Kind: String, Hashable, Sendable {
    /// Parallel rays along the node's local −Z (SceneKit's convention).
    case directional
    /// Uniform light from every direction.
    case ambient
  }

  /// The kind.
  public var kind: Kind
  /// Colour (sRGB encoded, 0…1).
  public var color: Color
  /// Multiplier on `color` (1 = SceneKit's default 1000 lumen).
  public var intensity: Double

  /// Creates a light.
  public init(kind: Kind, color: Color = .white, intensity: Double = 1) {
    self.kind = kind
    self.color = color
    self.intensity = intensity
  }
}
