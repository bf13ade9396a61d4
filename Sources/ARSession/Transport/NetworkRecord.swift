/// What happened to one message: a failed send, or per receiver its arrival or why it was dropped
/// (one line of `messages.jsonl`).
public struct NetworkRecord: Hashable, Sendable {
  /// The message as sent.
  public var message: NetworkMessage
  /// Its index in send order (0-based).
  public var sequence: Int
  /// Why the send failed (nothing delivered), or nil when it was accepted.
  public var failure: SendFailure?
  /// One outcome per receiver resolved at send time, in the order given to `send`.
  public var outcomes: [Outcome]

  /// One receiver's fate.
  public struct Outcome: Hashable, Sendable {
    /// The receiver's user id.
    public var receiver: String
    /// Arrival τ in integer microseconds, or nil when dropped.
    public var arrivalMicroseconds: Int64?
    /// Why it never arrived, or nil when it did.
    public var dropReason: DropReason?
    /// Transmission attempts the link needed (1 without losses).
    public var attempts: Int
  }
}

/// Why a send call failed: the SDK refused the message.
public enum SendFailure: Hashable, Sendable, CustomStringConvertible {
  /// `sizeBytes` exceeds `maximumMessageBytes`.
  case tooLarge(bytes: Int, limit: Int)
  /// A rate limit of `limit` messages per `windowSeconds` would be exceeded.
  case tooOften(limit: Int, windowSeconds: Double)
  /// A byte-rate limit of `limit` bytes per `windowSeconds` would be exceeded.
  case tooManyBytes(limit: Int, windowSeconds: Double)

  /// A short reason, e.g. `message is 40000 bytes, the limit is 32768`.
  public var description: String {
    switch self {
    case .tooLarge(let bytes, let limit): "message is \(bytes) bytes, the limit is \(limit)"
    case .tooOften(let limit, let window):
      "more than \(limit) messages in \(window) s"
    case .tooManyBytes(let limit, let window): "more than \(limit) bytes in \(window) s"
    }
  }
}

/// Why an accepted message never reached one receiver.
public enum DropReason: String, Hashable, Sendable {
  /// Lost on an unreliable link.
  case lost
  /// A reliable link gave up retransmitting.
  case retransmissionTimeout = "retransmission-timeout"
  /// The receiver left before it arrived.
  case receiverLeft = "receiver-left"
  /// The receiver did not exist (a peer message to an unknown or absent user).
  case noSuchReceiver = "no-such-receiver"
}
