import ARFormats
import ARReplay
import ARSession
import ARSupport

/// Plays a stroke log into a live session (`arsim strokes send`): connects to the strokes port
/// and sends each message, framed (`StrokeFraming`), when the wall clock since the connection
/// reaches its `t` (messages with `t` ≤ 0 at once), in file order.
public struct StrokeLogSender: Sendable {
  /// Where the live session listens.
  public var endpoint: LoopbackEndpoint
  /// Connect time limit.
  public var connectTimeout: Duration = .seconds(5)
  /// Time limit of each message's send.
  public var sendTimeout: Duration = .seconds(5)
  /// Playback speed (2 = twice as fast).
  public var speed: Double = 1
  /// Raised → stop sending.
  public var stop: StopSignal = .interrupt

  /// Creates a sender.
  public init(endpoint: LoopbackEndpoint) { self.endpoint = endpoint }

  /// Sends the log; returns the number of messages sent.
  /// - Throws: `LiveError` `.refused`, `.timedOut`, `.reset`, `.closed`, `.interrupted`.
  public func send(_ log: StrokeLog) throws(LiveError) -> Int {
    let connection = try TCPConnection.connect(to: endpoint, timeout: connectTimeout, stop: stop)
    let start = ContinuousClock.now
    var sent = 0
    for message in log.messages {
      let due = start + .microseconds(ReplayTime.microseconds(message.t / speed))
      try stop.wait(until: due)
      try connection.send(StrokeFraming.frame(message.data), timeout: sendTimeout)
      sent += 1
    }
    connection.shutdownSending()
    return sent
  }
}
