import ARSupport

/// A video frame rate as an exact fraction `numerator / denominator` frames per second, as the
/// YUV4MPEG2 `F` field (`F30000:1001`).
public struct FrameRate: Hashable, Sendable, CustomStringConvertible {
  /// Frames, 1…2³²−1.
  public let numerator: Int64
  /// Per this many seconds, 1…2³²−1.
  public let denominator: Int64

  /// Creates a rate; `nil` unless both terms are in 1…2³²−1 (YUV4MPEG2 stores 32-bit terms).
  public init?(numerator: Int64, denominator: Int64) {
    let range: ClosedRange<Int64> = 1...Int64(UInt32.max)
    guard range.contains(numerator), range.contains(denominator) else { return nil }
    self.numerator = numerator
    self.denominator = denominator
  }

  /// Frames per second as a `Double` (for display only; timing uses `frameIndex`).
  public var framesPerSecond: Double { Double(numerator) / Double(denominator) }

  /// `num:den`, as in the header.
  public var description: String { "\(numerator):\(denominator)" }

  /// The index of the frame shown at video time `microseconds`: ⌊µs · num / (den · 10⁶)⌋,
  /// computed exactly in integers (so 0.2 s at 25 fps is frame 5, never 4.999… → 4).
  ///
  /// Returns `nil` for a negative time (before the video starts). Saturates at `Int64.max`
  /// for times too large to hold the index.
  public func frameIndex(atMicroseconds microseconds: Int64) -> Int64? {
    guard microseconds >= 0 else { return nil }
    // 128-bit product µs · num, divided by den · 10⁶ (≤ 4.3e15, no overflow).
    let product = microseconds.multipliedFullWidth(by: numerator)
    let divisor = denominator * 1_000_000
    guard product.high < divisor else { return Int64.max }
    return divisor.dividingFullWidth(product).quotient
  }
}
