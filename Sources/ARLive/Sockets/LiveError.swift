import ARRender

/// Why a live connection or session ended early (Documentation/Live.md, "Failures").
public enum LiveFailure: String, Sendable, CaseIterable {
  /// Nothing listens on the port (`ECONNREFUSED`).
  case refused
  /// A connect, read, write or handshake did not finish in its time limit.
  case timedOut = "timed out"
  /// The peer answered the handshake with other bytes than its token.
  case rejected
  /// The peer closed the connection (end of stream where more bytes were due).
  case closed
  /// The peer reset the connection (`ECONNRESET`, `EPIPE`).
  case reset
  /// The local port is taken (`EADDRINUSE`).
  case addressInUse = "address in use"
  /// The peer broke the wire format (bad magic, version, sizes, framing).
  case protocolViolation = "protocol violation"
  /// SIGINT or SIGTERM (Ctrl-C) asked the process to stop.
  case interrupted
  /// Another system call failure (the detail names it).
  case system
}

/// A live-session failure: the reason (one of `LiveFailure`) and what happened, in words.
public struct LiveError: Error, Sendable, CustomStringConvertible {
  /// The reason.
  public var failure: LiveFailure
  /// What happened (e.g. "connect to 127.0.0.1:5000: connection refused").
  public var detail: String
  /// Bytes of the interrupted transfer that did arrive (reads that ended early), else 0.
  public var bytesTransferred: Int

  /// Creates an error.
  public init(_ failure: LiveFailure, _ detail: String, bytesTransferred: Int = 0) {
    self.failure = failure
    self.detail = detail
    self.bytesTransferred = bytesTransferred
  }

  /// `reason: detail`.
  public var description: String { "\(failure.rawValue): \(detail)" }
}
