#if canImport(Glibc)
  import Glibc
#endif

/// The broadcast upload extension's side of the screen-share handshake (seed 004,
/// `BroadcastSender(broadcastPort:rxToken:txToken:)`): connect to the app on the loopback
/// address with `TCP_NODELAY`, send the transmission token's UTF-8 bytes, read exactly as many
/// bytes as the reception token has and compare them.
///
/// States move `started → handshaking → connected | failed`; each change is recorded in
/// `transitions` with its wall-clock time. A connected sender can still fail later (the
/// stream breaks): `fail(_:)` records it.
public final class BroadcastSender {
  /// Where the app listens.
  public let endpoint: LoopbackEndpoint
  /// The token this side sends (`txToken`, the app's `broadcastPeerToken`).
  public let transmissionToken: [UInt8]
  /// The token the app must answer with (`rxToken`, the app's `broadcastMyToken`).
  public let receptionToken: [UInt8]
  /// Time limit of the TCP connect.
  public var connectTimeout: Duration
  /// Time limit of the token exchange once connected.
  public var handshakeTimeout: Duration
  /// The current state.
  public private(set) var state: BroadcastState = .started
  /// Every state change, the initial `started` first.
  public private(set) var transitions: [BroadcastTransition] = []
  private let created = ContinuousClock.now
  private let stop: StopSignal

  /// Creates a sender in the `started` state (nothing is sent until `connect()`).
  public init(
    endpoint: LoopbackEndpoint, transmissionToken: String, receptionToken: String,
    connectTimeout: Duration = .seconds(5), handshakeTimeout: Duration = .seconds(5),
    stop: StopSignal = .interrupt
  ) {
    self.endpoint = endpoint
    self.transmissionToken = Array(transmissionToken.utf8)
    self.receptionToken = Array(receptionToken.utf8)
    self.connectTimeout = connectTimeout
    self.handshakeTimeout = handshakeTimeout
    self.stop = stop
    record(.started)
  }

  /// Connects and runs the handshake.
  /// - Returns: the connection, in state `connected`.
  /// - Throws: `LiveError` after moving to `failed`: `.refused`, `.timedOut` (connect or
  ///   handshake), `.rejected` (other reception bytes), `.closed`/`.reset` (the app hung up),
  ///   `.interrupted`.
  public func connect() throws(LiveError) -> TCPConnection {
    precondition(state == .started, "connect() runs once")
    let connection: TCPConnection
    do throws(LiveError) {
      connection = try TCPConnection.connect(to: endpoint, timeout: connectTimeout, stop: stop)
      record(.handshaking)
      let deadline = ContinuousClock.now + handshakeTimeout
      try connection.send(transmissionToken, timeout: handshakeTimeout)
      let answer: [UInt8]
      do throws(LiveError) {
        answer = try connection.receive(
          exactly: receptionToken.count, timeout: max(.zero, deadline - .now))
      } catch  where error.failure == .closed || error.failure == .reset {
        // The app answers nothing to a wrong token: it closes (seed 004), so say so.
        throw LiveError(
          error.failure,
          error.detail + " during the handshake, before any answer: the app closes the "
            + "connection when the token is not its peer token (is --tx-token right?)",
          bytesTransferred: error.bytesTransferred)
      }
      guard answer == receptionToken else {
        throw LiveError(
          .rejected,
          "\(endpoint) answered the handshake with \(answer.count) bytes other than the "
            + "reception token (\(Self.excerpt(answer)))")
      }
    } catch {
      fail(error)
      throw error
    }
    record(.connected)
    return connection
  }

  /// Moves to `failed` with `error`'s reason (a stream that broke after `connected`).
  public func fail(_ error: LiveError) {
    guard state != .failed else { return }
    record(.failed, error)
  }

  private func record(_ newState: BroadcastState, _ error: LiveError? = nil) {
    state = newState
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    let elapsed = ContinuousClock.now - created
    transitions.append(
      BroadcastTransition(
        state: newState, failure: error?.failure, detail: error?.detail,
        wallTime: Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9,
        elapsedSeconds: elapsed.seconds))
  }

  /// Up to 32 bytes as printable ASCII, others as `\xNN`.
  static func excerpt(_ bytes: [UInt8]) -> String {
    var text = bytes.prefix(32).map { b -> String in
      (0x20..<0x7F).contains(b) && b != UInt8(ascii: "\\")
        ? String(UnicodeScalar(b)) : "\\x" + String(b, radix: 16).leftPadded(2)
    }.joined()
    if bytes.count > 32 { text += "…" }
    return "'" + text + "'"
  }
}

extension Duration {
  /// The duration in seconds.
  var seconds: Double {
    let (s, attoseconds) = components
    return Double(s) + Double(attoseconds) * 1e-18
  }
}

extension String {
  func leftPadded(_ width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
