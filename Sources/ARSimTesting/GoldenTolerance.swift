import ARRender

/// How close an image must be to its golden reference to pass.
public enum GoldenTolerance: Hashable, Sendable, CustomStringConvertible {
  /// Byte-equal pixels (the default: ARSim's renderer is deterministic).
  case exact
  /// pixelmatch's perceptual test (YIQ `threshold`, 0…1, 0.1 by default; anti-aliased pixels
  /// not counted) with at most `maxDifferingPixels` differing pixels.
  case perceptual(threshold: Double = 0.1, maxDifferingPixels: Int = 0)
  /// pixelmatch's perceptual test with at most `maxDifferingFraction` (0…1) of the pixels
  /// differing.
  case perceptualFraction(threshold: Double = 0.1, maxDifferingFraction: Double)

  /// The comparison to run.
  public var comparison: ImageComparison {
    switch self {
    case .exact: ImageComparison(mode: .exact)
    case .perceptual(let threshold, _), .perceptualFraction(let threshold, _):
      ImageComparison(mode: .perceptual(threshold: threshold))
    }
  }

  /// The number or share of differing pixels allowed.
  public var allowed: ImageComparison.Tolerance {
    switch self {
    case .exact: .pixels(0)
    case .perceptual(_, let count): .pixels(count)
    case .perceptualFraction(_, let fraction): .fraction(fraction)
    }
  }

  /// E.g. `perceptual (threshold 0.1, ≤ 5 pixels)`.
  public var description: String {
    switch self {
    case .exact: "exact"
    case .perceptual(let threshold, let count):
      "perceptual (threshold \(threshold), ≤ \(count) pixels)"
    case .perceptualFraction(let threshold, let fraction):
      "perceptual (threshold \(threshold), ≤ \(fraction * 100)% of pixels)"
    }
  }
}
