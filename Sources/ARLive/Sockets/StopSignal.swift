#if canImport(Glibc)
  import Glibc
#endif

/// A level-triggered "stop now" flag that every socket wait polls together with its socket, so
/// a stop request ends any wait at once (a self-pipe: once requested, the pipe stays readable).
///
/// `StopSignal.interrupt` is raised by SIGINT and SIGTERM after
/// `installInterruptHandlers()`; tests make their own signals and raise them with `request()`.
public final class StopSignal: @unchecked Sendable {  // two descriptors, set once
  /// The read end, polled for `POLLIN`.
  let readDescriptor: Int32
  private let writeDescriptor: Int32

  /// Creates a signal that is not raised. A pipe that cannot be made (descriptor limit)
  /// leaves a signal that is never raised.
  public init() {
    var fds: [Int32] = [-1, -1]
    if pipe2(&fds, O_CLOEXEC | O_NONBLOCK) != 0 { fds = [-1, -1] }
    readDescriptor = fds[0]
    writeDescriptor = fds[1]
  }

  deinit {
    if readDescriptor >= 0 { close(readDescriptor) }
    if writeDescriptor >= 0 { close(writeDescriptor) }
  }

  /// Raises the signal (async-signal-safe: one `write(2)`).
  public func request() {
    var byte: UInt8 = 1
    _ = write(writeDescriptor, &byte, 1)
  }

  /// Whether the signal has been raised.
  public var isRequested: Bool {
    guard readDescriptor >= 0 else { return false }
    var fd = pollfd(fd: readDescriptor, events: Int16(POLLIN), revents: 0)
    return poll(&fd, 1, 0) > 0 && fd.revents & Int16(POLLIN) != 0
  }

  /// Waits until `deadline` (returns at once when it has passed).
  /// - Throws: `LiveError` `.interrupted` as soon as the signal is raised.
  public func wait(until deadline: ContinuousClock.Instant) throws(LiveError) {
    while true {
      if isRequested { throw LiveError(.interrupted, "while waiting") }
      let remaining = deadline - .now
      if remaining <= .zero { return }
      let (s, attoseconds) = remaining.components
      let microseconds = s * 1_000_000 + attoseconds / 1_000_000_000_000
      if microseconds < 2000 || readDescriptor < 0 {
        // poll(2) counts whole milliseconds: the last ones are slept precisely.
        usleep(UInt32(clamping: max(1, min(microseconds, 100_000))))
        continue
      }
      var fd = pollfd(fd: readDescriptor, events: Int16(POLLIN), revents: 0)
      _ = poll(&fd, 1, Int32(clamping: microseconds / 1000 - 1))
    }
  }

  /// The process-wide signal raised by SIGINT (Ctrl-C) and SIGTERM.
  public static let interrupt = StopSignal()

  /// Routes the first SIGINT and SIGTERM to `interrupt` instead of ending the process, so live
  /// commands can close their files and sockets and exit with 130; a second one ends the
  /// process at once (the default action is restored). SIGPIPE is ignored (writes to a closed
  /// socket report `EPIPE` instead; ARLive also sends with `MSG_NOSIGNAL`).
  public static func installInterruptHandlers() {
    interruptWriteDescriptor = interrupt.writeDescriptor
    for number in [SIGINT, SIGTERM] {
      signal(number) { number in
        var byte: UInt8 = 1
        _ = write(interruptWriteDescriptor, &byte, 1)
        signal(number, SIG_DFL)
      }
    }
    signal(SIGPIPE, SIG_IGN)
  }
}

/// The write end of `StopSignal.interrupt`, for the C signal handler (it cannot capture).
nonisolated(unsafe) private var interruptWriteDescriptor: Int32 = -1
