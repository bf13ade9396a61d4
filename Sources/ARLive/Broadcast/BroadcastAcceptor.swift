/// The app's side of the screen-share handshake (the app's `broadcastPeerToken` and
/// `broadcastMyToken`): accept one sender on a loopback listener, read exactly as many bytes
/// as the peer token has, compare them, and answer with this side's token.
///
/// A sender whose bytes differ is closed without an answer (its `BroadcastSender` then fails
/// with `closed`); one that sends too few bytes is closed when the handshake time runs out.
public struct BroadcastAcceptor: Sendable {
  /// The token the sender must send (`broadcastPeerToken`).
  public var peerToken: [UInt8]
  /// The token sent back (`broadcastMyToken`).
  public var myToken: [UInt8]
  /// Time limit for a sender to connect.
  public var acceptTimeout: Duration
  /// Time limit for the token exchange.
  public var handshakeTimeout: Duration

  /// Creates an acceptor.
  public init(
    peerToken: String, myToken: String, acceptTimeout: Duration = .seconds(30),
    handshakeTimeout: Duration = .seconds(5)
  ) {
    self.peerToken = Array(peerToken.utf8)
    self.myToken = Array(myToken.utf8)
    self.acceptTimeout = acceptTimeout
    self.handshakeTimeout = handshakeTimeout
  }

  /// Accepts a sender and runs the handshake.
  /// - Throws: `LiveError` `.timedOut` (no sender, or its token incomplete in time),
  ///   `.rejected` (wrong token; the connection is closed), `.closed`, `.reset`,
  ///   `.interrupted`.
  public func accept(on listener: TCPListener) throws(LiveError) -> TCPConnection {
    let connection = try listener.accept(timeout: acceptTimeout)
    let token: [UInt8]
    do {
      token = try connection.receive(exactly: peerToken.count, timeout: handshakeTimeout)
    } catch {
      if error.failure == .timedOut {
        throw LiveError(
          .timedOut,
          "\(connection.peer) sent \(error.bytesTransferred) of the token's \(peerToken.count) "
            + "bytes within the handshake time")
      }
      throw error
    }
    guard token == peerToken else {
      throw LiveError(
        .rejected,
        "\(connection.peer) sent a token other than --peer-token "
          + "(\(BroadcastSender.excerpt(token))); connection closed")
    }
    try connection.send(myToken, timeout: handshakeTimeout)
    return connection
  }
}
