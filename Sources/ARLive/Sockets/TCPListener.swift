#if canImport(Glibc)
  import Glibc
#endif

/// A listening TCP socket on a loopback address (the app side of the seed's screen share, and
/// the live strokes port).
public final class TCPListener: @unchecked Sendable {
  private let descriptor: Int32
  /// The bound address; `port` is the system's choice when 0 was asked for.
  public let endpoint: LoopbackEndpoint
  /// Raised → `accept` throws `.interrupted`.
  public let stop: StopSignal

  /// Binds and listens on `endpoint` (port 0: the system picks a free port).
  /// - Throws: `LiveError` `.addressInUse` when another socket holds the port, `.system`.
  public init(endpoint: LoopbackEndpoint, stop: StopSignal = .interrupt) throws(LiveError) {
    let fd = socket(
      AF_INET,
      Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
      0)
    guard fd >= 0 else { throw LiveError(.system, "socket: " + errnoText()) }
    // Rebinding a port whose last connection is in TIME_WAIT is allowed; a listening or
    // connected socket on it still makes bind fail with EADDRINUSE.
    var on: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
    var address = endpoint.socketAddress
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(fd, 4) == 0 else {
      let code = errno
      close(fd)
      throw LiveError(
        code == EADDRINUSE ? .addressInUse : .system,
        "listen on \(endpoint): " + String(cString: strerror(code)))
    }
    var actual = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &actual) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    var bound_ = endpoint
    bound_.port = UInt16(bigEndian: actual.sin_port)
    self.endpoint = bound_
    self.descriptor = fd
    self.stop = stop
  }

  deinit { close(descriptor) }

  /// Accepts one connection (with `TCP_NODELAY`), waiting at most `timeout`.
  /// - Throws: `LiveError` `.timedOut`, `.interrupted`, `.system`.
  public func accept(timeout: Duration) throws(LiveError) -> TCPConnection {
    let deadline = ContinuousClock.now + timeout
    while true {
      var peer = sockaddr_in()
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let fd = withUnsafeMutablePointer(to: &peer) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          accept4(
            descriptor, $0, &length, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
        }
      }
      if fd >= 0 {
        var peerEndpoint = LoopbackEndpoint(port: UInt16(bigEndian: peer.sin_port))
        peerEndpoint =
          (try? LoopbackEndpoint(
            host: Self.dottedQuad(UInt32(bigEndian: peer.sin_addr.s_addr)), port: peerEndpoint.port))
          ?? peerEndpoint
        let connection = TCPConnection(descriptor: fd, peer: peerEndpoint.description, stop: stop)
        connection.setNoDelay()
        return connection
      }
      let code = errno
      if code == EINTR || code == ECONNABORTED { continue }
      guard code == EAGAIN || code == EWOULDBLOCK else {
        throw LiveError(.system, "accept on \(endpoint): " + String(cString: strerror(code)))
      }
      try pollReady(
        descriptor, Int16(POLLIN), until: deadline, stop: stop,
        doing: "accept a connection on \(endpoint)")
    }
  }

  /// Waits at most `timeout` for a connection to be pending; false when none came.
  /// - Throws: `LiveError` `.interrupted`, `.system`.
  public func waitForConnection(timeout: Duration) throws(LiveError) -> Bool {
    do {
      try pollReady(
        descriptor, Int16(POLLIN), until: .now + timeout, stop: stop, doing: "accept")
      return true
    } catch {
      if error.failure == .timedOut { return false }
      throw error
    }
  }

  static func dottedQuad(_ a: UInt32) -> String {
    "\(a >> 24).\(a >> 16 & 0xFF).\(a >> 8 & 0xFF).\(a & 0xFF)"
  }
}
