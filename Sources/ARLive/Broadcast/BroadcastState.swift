/// The broadcast sender's states, as the screen-share seed's `BroadcastSender.State`:
/// `started → handshaking → connected | failed`.
public enum BroadcastState: String, Sendable, Hashable {
  /// Created; connecting to the app's port.
  case started
  /// Connected; the transmission token went out, the reception token is awaited.
  case handshaking
  /// The reception token matched: frames may be sent.
  case connected
  /// Connecting or the handshake failed (the transition says why), or the stream broke.
  case failed
}

/// One state change of a broadcast sender, for `events.jsonl` (`broadcast-state` events).
public struct BroadcastTransition: Sendable, Hashable {
  /// The new state.
  public var state: BroadcastState
  /// Why, for `failed` (refused, timed out, rejected, closed, reset, interrupted, …).
  public var failure: LiveFailure?
  /// What happened, for `failed`.
  public var detail: String?
  /// Wall-clock time of the change: seconds since 1970-01-01 UTC (`CLOCK_REALTIME`).
  public var wallTime: Double
  /// Seconds since the sender was created (monotonic clock).
  public var elapsedSeconds: Double
}
