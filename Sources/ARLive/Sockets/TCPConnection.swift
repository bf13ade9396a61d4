#if canImport(Glibc)
  import Glibc
#endif

/// A connected TCP socket on the loopback interface, non-blocking underneath: every operation
/// waits with `poll(2)` until its deadline, and ends early when its `StopSignal` is raised.
///
/// Not safe for concurrent use of one direction from two threads; one reader and one writer
/// thread at a time are fine.
public final class TCPConnection: @unchecked Sendable {
  private var descriptor: Int32
  /// Raised → every wait throws `.interrupted`.
  public let stop: StopSignal
  /// The peer, for messages.
  public let peer: String

  init(descriptor: Int32, peer: String, stop: StopSignal) {
    self.descriptor = descriptor
    self.peer = peer
    self.stop = stop
  }

  deinit { close() }

  /// Closes the socket now (a reset when `resetOnClose()` was called); later operations fail
  /// with `.system` (bad descriptor). Call it from the thread that owns the connection.
  public func close() {
    guard descriptor >= 0 else { return }
    Glibc.close(descriptor)
    descriptor = -1
  }

  /// Connects to `endpoint` with `TCP_NODELAY` (the seed's `options.noDelay = true`).
  /// - Throws: `LiveError` `.refused` (nothing listens), `.timedOut` (no answer within
  ///   `timeout`), `.interrupted`, `.system`.
  public static func connect(
    to endpoint: LoopbackEndpoint, timeout: Duration, stop: StopSignal = .interrupt
  ) throws(LiveError) -> TCPConnection {
    let fd = socket(
      AF_INET,
      Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw LiveError(.system, "socket: " + errnoText()) }
    let connection = TCPConnection(descriptor: fd, peer: endpoint.description, stop: stop)
    connection.setNoDelay()
    var address = endpoint.socketAddress
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    if result != 0 {
      guard errno == EINPROGRESS else {
        throw connectError(errno, endpoint)
      }
      try connection.wait(Int16(POLLOUT), until: .now + timeout, doing: "connect to \(endpoint)")
      var status: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      getsockopt(fd, SOL_SOCKET, SO_ERROR, &status, &length)
      if status != 0 { throw connectError(status, endpoint) }
    }
    return connection
  }

  private static func connectError(_ code: Int32, _ endpoint: LoopbackEndpoint) -> LiveError {
    let text = "connect to \(endpoint): " + String(cString: strerror(code))
    return LiveError(code == ECONNREFUSED ? .refused : .system, text)
  }

  /// Sets `TCP_NODELAY`: small writes (tokens, stroke messages) leave at once.
  func setNoDelay() {
    var on: Int32 = 1
    setsockopt(
      descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
  }

  /// Whether `TCP_NODELAY` is set (tests).
  public var isNoDelay: Bool {
    var value: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    getsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &value, &length)
    return value != 0
  }

  /// Limits the kernel's send buffer (tests of back-pressure; the kernel doubles the value).
  public func setSendBufferBytes(_ bytes: Int) {
    var value = Int32(clamping: bytes)
    setsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &value, socklen_t(MemoryLayout<Int32>.size))
  }

  /// Writes all of `bytes`.
  /// - Throws: `LiveError` `.timedOut` when the peer does not take them within `timeout`
  ///   (a receiver that never reads), `.reset`/`.closed` when it went away, `.interrupted`.
  public func send(_ bytes: UnsafeRawBufferPointer, timeout: Duration) throws(LiveError) {
    let deadline = ContinuousClock.now + timeout
    var offset = 0
    while offset < bytes.count {
      let n = Glibc.send(
        descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset, Int32(MSG_NOSIGNAL)
      )
      if n > 0 {
        offset += n
        continue
      }
      let code = errno
      if n < 0, code == EINTR { continue }
      if n < 0, code == EAGAIN || code == EWOULDBLOCK {
        try wait(
          Int16(POLLOUT), until: deadline,
          doing: "send to \(peer) (\(offset) of \(bytes.count) bytes taken)")
        continue
      }
      throw transferError(code, "send to \(peer)", offset)
    }
  }

  /// Writes all of `bytes` (see `send(_:timeout:)` for the errors).
  public func send(_ bytes: [UInt8], timeout: Duration) throws(LiveError) {
    let result = bytes.withUnsafeBytes { buffer in
      Result { () throws(LiveError) in try send(buffer, timeout: timeout) }
    }
    try result.get()
  }

  /// Reads exactly `buffer.count` bytes.
  /// - Throws: `LiveError` `.closed` (end of stream first; `bytesTransferred` says how many
  ///   came), `.reset`, `.timedOut` (not all within `timeout`), `.interrupted`.
  public func receive(into buffer: UnsafeMutableRawBufferPointer, timeout: Duration)
    throws(LiveError)
  {
    let deadline = ContinuousClock.now + timeout
    var offset = 0
    while offset < buffer.count {
      let n = recv(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, 0)
      if n > 0 {
        offset += n
        continue
      }
      if n == 0 {
        throw LiveError(
          .closed, "\(peer) closed the connection after \(offset) of \(buffer.count) bytes",
          bytesTransferred: offset)
      }
      let code = errno
      if code == EINTR { continue }
      if code == EAGAIN || code == EWOULDBLOCK {
        do {
          try wait(
            Int16(POLLIN), until: deadline,
            doing: "receive from \(peer) (\(offset) of \(buffer.count) bytes)")
        } catch {
          throw LiveError(error.failure, error.detail, bytesTransferred: offset)
        }
        continue
      }
      throw transferError(code, "receive from \(peer)", offset)
    }
  }

  /// Reads exactly `count` bytes (see `receive(into:timeout:)`).
  public func receive(exactly count: Int, timeout: Duration) throws(LiveError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    let result = bytes.withUnsafeMutableBytes { buffer in
      Result { () throws(LiveError) in try receive(into: buffer, timeout: timeout) }
    }
    try result.get()
    return bytes
  }

  /// Reads what has arrived, up to `maximum` bytes, waiting at most `timeout` for the first;
  /// an empty result means the peer closed the connection.
  /// - Throws: `LiveError` `.timedOut`, `.reset`, `.interrupted`.
  public func receiveSome(maximum: Int, timeout: Duration) throws(LiveError) -> [UInt8] {
    let deadline = ContinuousClock.now + timeout
    var bytes = [UInt8](repeating: 0, count: maximum)
    while true {
      let n = bytes.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, maximum, 0) }
      if n >= 0 { return Array(bytes[0..<n]) }
      let code = errno
      if code == EINTR { continue }
      if code == EAGAIN || code == EWOULDBLOCK {
        try wait(Int16(POLLIN), until: deadline, doing: "receive from \(peer)")
        continue
      }
      throw transferError(code, "receive from \(peer)", 0)
    }
  }

  /// Closes the sending direction (the peer reads end of stream once the bytes are read).
  public func shutdownSending() { shutdown(descriptor, Int32(SHUT_WR)) }

  /// Makes the next close send a reset instead of a normal end (SO_LINGER 0; tests).
  public func resetOnClose() {
    var value = linger(l_onoff: 1, l_linger: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &value, socklen_t(MemoryLayout<linger>.size))
  }

  /// Waits until `events` are ready on the socket, `deadline` passes or `stop` is raised.
  func wait(_ events: Int16, until deadline: ContinuousClock.Instant, doing what: String)
    throws(LiveError)
  {
    try pollReady(descriptor, events, until: deadline, stop: stop, doing: what)
  }

  private func transferError(_ code: Int32, _ what: String, _ offset: Int) -> LiveError {
    let failure: LiveFailure = code == ECONNRESET || code == EPIPE ? .reset : .system
    return LiveError(
      failure, "\(what): " + String(cString: strerror(code)), bytesTransferred: offset)
  }
}

/// Polls `descriptor` for `events` together with `stop`, until `deadline`.
/// - Throws: `LiveError` `.timedOut` naming `what`, `.interrupted`, `.system`.
func pollReady(
  _ descriptor: Int32, _ events: Int16, until deadline: ContinuousClock.Instant,
  stop: StopSignal, doing what: String
) throws(LiveError) {
  while true {
    let remaining = deadline - .now
    if remaining <= .zero { throw LiveError(.timedOut, what) }
    let (seconds, attoseconds) = remaining.components
    let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    var fds = [
      pollfd(fd: descriptor, events: events, revents: 0),
      pollfd(fd: stop.readDescriptor, events: Int16(POLLIN), revents: 0),
    ]
    let n = poll(&fds, nfds_t(stop.readDescriptor >= 0 ? 2 : 1), milliseconds)
    if n < 0 {
      if errno == EINTR { continue }
      throw LiveError(.system, "poll: " + errnoText())
    }
    if fds[1].revents != 0 { throw LiveError(.interrupted, "while waiting to \(what)") }
    if fds[0].revents != 0 { return }
  }
}

/// `strerror(errno)`.
func errnoText() -> String { String(cString: strerror(errno)) }
