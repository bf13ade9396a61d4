/// A video's frame rate as the fraction ffmpeg takes (`30/1`, `30000/1001`).
public struct VideoFrameRate: Hashable, Sendable, CustomStringConvertible {
  /// Frames …
  public var numerator: Int
  /// … per this many seconds.
  public var denominator: Int

  /// `numerator / denominator` frames per second. Precondition: both positive (trap).
  public init(numerator: Int, denominator: Int) {
    precondition(numerator > 0 && denominator > 0, "a frame rate's terms must be positive")
    self.numerator = numerator
    self.denominator = denominator
  }

  /// The simplest fraction equal to `framesPerSecond` within 10⁻⁹ (relative), trying
  /// denominators 1, 1001 (NTSC rates: 29.97… = 30000/1001), 2, 4, 5, 8, 10, 25, 100, 1000;
  /// otherwise the rate rounded to 1/1000. Nil unless the rate is finite and in
  /// 0.001…1000 frames/s.
  public init?(framesPerSecond: Double) {
    guard framesPerSecond.isFinite, framesPerSecond >= 0.001, framesPerSecond <= 1000 else {
      return nil
    }
    for denominator in [1, 1001, 2, 4, 5, 8, 10, 25, 100, 1000] {
      let scaled = framesPerSecond * Double(denominator)
      let whole = scaled.rounded()
      if abs(scaled - whole) <= 1e-9 * scaled, whole >= 1 {
        numerator = Int(whole)
        self.denominator = denominator
        reduce()
        return
      }
    }
    numerator = Int((framesPerSecond * 1000).rounded())
    denominator = 1000
    reduce()
  }

  /// The reduced fraction (a 1000 denominator may share factors with the numerator).
  private mutating func reduce() {
    var a = numerator
    var b = denominator
    while b != 0 { (a, b) = (b, a % b) }
    numerator /= a
    denominator /= a
  }

  /// `numerator/denominator`.
  public var description: String { "\(numerator)/\(denominator)" }

  /// Frames per second.
  public var framesPerSecond: Double { Double(numerator) / Double(denominator) }
}
