import ARFormats
import ARSession
import ARSupport

/// Which AR tick each output frame shows (DESIGN §1).
///
/// AR ticks run at `arFrameRate` (τ_k = k / arFrameRate); output frame i is at τ = i / fps and
/// shows the state after the last tick with τ_k ≤ τ, i.e. tick ⌊i · arFrameRate / fps⌋. When fps
/// divides the AR rate this is every (arFrameRate/fps)-th tick exactly.
public struct FrameSchedule: Hashable, Sendable {
  /// AR ticks per second (> 0).
  public var arFrameRate: Double
  /// Output frames per second (> 0, ≤ arFrameRate).
  public var fps: Double
  /// Number of output frames.
  public var frameCount: Int

  /// Creates a schedule.
  public init(arFrameRate: Double, fps: Double, frameCount: Int) {
    self.arFrameRate = arFrameRate
    self.fps = fps
    self.frameCount = frameCount
  }

  /// The tick output frame `frame` shows. A relative epsilon of 1e-9 keeps exact ratios such
  /// as 60/30 or 60/24 from rounding down one tick.
  public func tick(forFrame frame: Int) -> Int {
    Int((Double(frame) * arFrameRate / fps * (1 + 1e-12) + 1e-9).rounded(.down))
  }

  /// τ of output frame `frame` (seconds).
  public func time(ofFrame frame: Int) -> Double { Double(frame) / fps }

  /// τ of tick `tick` (seconds).
  public func time(ofTick tick: Int) -> Double { Double(tick) / arFrameRate }
}
