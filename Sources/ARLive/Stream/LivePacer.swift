/// The wall clock a live run keeps pace with: replay time τ = 0 at `start`, and a tick or frame
/// due at τ is not run before `start + τ` (unless the run goes as fast as possible).
public final class LivePacer: Sendable {
  /// The instant of τ = 0.
  public let start: ContinuousClock.Instant
  /// Whether waits happen (false: `--as-fast-as-possible`).
  public let isPaced: Bool
  /// Raised → waits throw `.interrupted`.
  public let stop: StopSignal

  /// Creates a pacer starting now.
  public init(isPaced: Bool, stop: StopSignal = .interrupt, start: ContinuousClock.Instant = .now) {
    self.start = start
    self.isPaced = isPaced
    self.stop = stop
  }

  /// The instant τ = `microseconds`.
  public func instant(microseconds: Int64) -> ContinuousClock.Instant {
    start + .microseconds(microseconds)
  }

  /// Waits until the wall clock reaches τ = `microseconds` (at once when not paced or late).
  /// - Throws: `LiveError` `.interrupted` when the stop signal is raised (checked when not
  ///   paced too).
  public func wait(untilMicroseconds microseconds: Int64) throws(LiveError) {
    let before = "before τ = \(Double(microseconds) / 1_000_000) s"
    guard isPaced else {
      if stop.isRequested { throw LiveError(.interrupted, before) }
      return
    }
    do {
      try stop.wait(until: instant(microseconds: microseconds))
    } catch {
      throw LiveError(error.failure, error.failure == .interrupted ? before : error.detail)
    }
  }
}
