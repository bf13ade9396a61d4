import ARLive

/// Options the live commands share: `--host H` (loopback only), `--port P` and the time limits.
struct LiveOptions {
  /// The loopback endpoint of `--host` (default 127.0.0.1) and `--port`.
  var endpoint: LoopbackEndpoint

  /// The value options these commands accept (besides their own).
  static let valueOptions: Set<String> = [
    "--host", "--port", "--connect-timeout", "--handshake-timeout", "--idle-timeout",
  ]

  /// Reads `--host` and `--port` (`portOption` names the port flag, e.g. `--strokes-port`).
  /// - Parameter allowsZero: listeners take port 0 (the system picks a free one).
  /// - Throws: `UsageError` for a missing port, a port outside 0…65535, or a host outside
  ///   127.0.0.0/8.
  static func endpoint(
    _ args: Arguments, portOption: String = "--port", allowsZero: Bool, required: Bool = true
  ) throws -> LoopbackEndpoint? {
    guard let port = try args.integer(portOption, in: (allowsZero ? 0 : 1)...65535) else {
      if required { throw UsageError("\(portOption) P is required") }
      return nil
    }
    do {
      return try LoopbackEndpoint(host: args.value("--host") ?? "127.0.0.1", port: UInt16(port))
    } catch {
      throw UsageError("--host \(error.description)")
    }
  }

  /// A time limit in seconds (`--connect-timeout 2.5`), 0.001…3600.
  /// - Throws: `UsageError`.
  static func timeout(_ args: Arguments, _ name: String, default seconds: Double) throws -> Duration
  {
    let value =
      try args.number(
        name, expected: "seconds from 0.001 to 3600", where: { (0.001...3600).contains($0) })
      ?? seconds
    return .microseconds(Int64((value * 1e6).rounded()))
  }

  /// A token option: 1…1024 bytes of UTF-8.
  /// - Throws: `UsageError` when missing, empty or longer.
  static func token(_ args: Arguments, _ name: String) throws -> String {
    guard let token = args.value(name) else { throw UsageError("\(name) TOKEN is required") }
    guard token.utf8.count <= 1024 else {
      throw UsageError("\(name): \(token.utf8.count) bytes, at most 1024")
    }
    return token
  }
}

/// The line a live command prints when `error` ended its stream: `arsim stream: stopped:
/// timed out: …`, or for Ctrl-C `arsim stream: interrupted (SIGINT or SIGTERM) at frame 12`.
func liveStopLine(_ command: String, _ error: LiveError) -> String {
  error.failure == .interrupted
    ? "arsim \(command): interrupted (SIGINT or SIGTERM) \(error.detail)"
    : "arsim \(command): stopped: \(error.description)"
}

extension ExitCode {
  /// The exit code for a live failure: 69 (EX_UNAVAILABLE) when the peer is absent, slow or
  /// went away; 76 (EX_PROTOCOL) for a rejected handshake or broken wire format; 64 for a
  /// port in use (choose another); 130 (128 + SIGINT) when interrupted; 71 (EX_OSERR) else.
  init(_ error: LiveError) {
    switch error.failure {
    case .refused, .timedOut, .closed, .reset: self = .unavailable
    case .rejected, .protocolViolation: self = .protocolError
    case .addressInUse: self = .usage
    case .interrupted: self = .interrupted
    case .system: self = .systemError
    }
  }
}
