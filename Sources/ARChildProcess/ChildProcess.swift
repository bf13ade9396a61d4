import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A child process started with `posix_spawn`, its standard input a pipe the caller writes,
/// its standard output discarded, collected, or read by the caller (`StandardOutput`), its
/// standard error collected (the last `stderrLimit` bytes) by a reader thread so the child
/// never blocks on a full pipe.
///
/// Every wait is bounded: the pipes the caller writes and reads are non-blocking, so a write
/// waits at most `writeTimeoutSeconds` for the child to accept bytes and a read at most
/// `readTimeoutSeconds` for the child to produce some (a blocking pipe would let one `write`
/// of a large buffer sleep forever once the child stops reading, whatever `poll` said);
/// `finish` waits at most its timeout for the child to exit, after which the child is killed
/// (SIGKILL) and reaped. All pipe ends are close-on-exec, so concurrent spawns in the same
/// process do not inherit each other's pipes (which would keep a child's input open).
public final class ChildProcess: @unchecked Sendable {
  /// How a finished child ended.
  public struct Termination: Hashable, Sendable {
    /// The exit status, or nil when a signal ended it.
    public var exitStatus: Int32?
    /// The signal that ended it, or nil.
    public var signal: Int32?
    /// Whether the child exited with status 0.
    public var succeeded: Bool { exitStatus == 0 }
  }

  /// What becomes of the child's standard output.
  public enum StandardOutput: Hashable, Sendable {
    /// Sent to /dev/null.
    case discarded
    /// Kept by a reader thread (the first `limit` bytes), read with `output` after `finish`.
    case collected(limit: Int)
    /// A pipe the caller reads as the child writes (`readOutput(upTo:)`,
    /// `readOutput(exactly:)`), e.g. decoded frames streamed out of ffmpeg.
    case readByCaller
  }

  /// The process id.
  public let pid: pid_t
  /// The executable that runs.
  public let executable: String
  private var inputDescriptor: Int32
  private var outputDescriptor: Int32
  private let stdoutCollector: PipeCollector?
  private let stderrCollector: PipeCollector
  private var termination: Termination?

  /// Seconds a write may wait for the child to accept a byte (then `write` throws).
  public var writeTimeoutSeconds: Double = 60
  /// Seconds a read may wait for the child to produce a byte (then `readOutput` throws).
  public var readTimeoutSeconds: Double = 60

  /// Starts `executable` (a path; see `ExecutableLocator`) with `arguments` (without argv[0]).
  /// - Parameters:
  ///   - standardOutput: what becomes of the child's standard output.
  ///   - stderrLimit: bytes of standard error kept (the last ones).
  ///   - environment: the child's environment (nil: this process's).
  /// - Throws: `ChildProcessError.spawnFailed` with the `errno` text.
  public init(
    executable: String, arguments: [String], standardOutput: StandardOutput = .discarded,
    stderrLimit: Int = 64 << 10, environment: [String: String]? = nil
  ) throws(ChildProcessError) {
    _ = Self.ignoreBrokenPipes
    self.executable = executable
    var input: [Int32] = [-1, -1]
    var errors: [Int32] = [-1, -1]
    var output: [Int32] = [-1, -1]
    let collectsOutput = standardOutput != .discarded
    guard pipe2(&input, O_CLOEXEC) == 0 else { throw .spawnFailed(executable, Self.errnoText()) }
    guard pipe2(&errors, O_CLOEXEC) == 0 else {
      close(input[0])
      close(input[1])
      throw .spawnFailed(executable, Self.errnoText())
    }
    if collectsOutput, pipe2(&output, O_CLOEXEC) != 0 {
      for fd in input + errors { close(fd) }
      throw .spawnFailed(executable, Self.errnoText())
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, input[0], 0)
    if collectsOutput {
      posix_spawn_file_actions_adddup2(&actions, output[1], 1)
    } else {
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let envp = environment.map { $0.map { strdup($0.key + "=" + $0.value) } + [nil] }
    defer { for pointer in envp ?? [] { free(pointer) } }
    var child: pid_t = 0
    var status: Int32 = 0
    // ETXTBSY is transient: a script written just before (a wrapper, a test's fake tool) is
    // still open for writing in a child another thread forked and that has not exec'd yet.
    for attempt in 0..<Self.busyExecutableAttempts {
      if attempt > 0 { usleep(10_000) }
      status =
        envp.map { posix_spawn(&child, executable, &actions, nil, argv, $0) }
        ?? posix_spawn(&child, executable, &actions, nil, argv, environ)
      guard status == ETXTBSY else { break }
    }
    // The parent keeps only its ends.
    close(input[0])
    close(errors[1])
    if collectsOutput { close(output[1]) }
    guard status == 0 else {
      close(input[1])
      close(errors[0])
      if collectsOutput { close(output[0]) }
      throw .spawnFailed(executable, String(cString: strerror(status)))
    }
    pid = child
    // Only the parent's ends become non-blocking (each pipe end is its own open file).
    inputDescriptor = input[1]
    _ = fcntl(inputDescriptor, F_SETFL, fcntl(inputDescriptor, F_GETFL) | O_NONBLOCK)
    stderrCollector = PipeCollector(descriptor: errors[0], limit: stderrLimit, keepsTail: true)
    switch standardOutput {
    case .discarded:
      outputDescriptor = -1
      stdoutCollector = nil
    case .collected(let limit):
      outputDescriptor = -1
      stdoutCollector = PipeCollector(descriptor: output[0], limit: limit, keepsTail: false)
    case .readByCaller:
      outputDescriptor = output[0]
      _ = fcntl(outputDescriptor, F_SETFL, fcntl(outputDescriptor, F_GETFL) | O_NONBLOCK)
      stdoutCollector = nil
    }
  }

  deinit {
    if termination == nil {
      closeInput()
      kill(pid, SIGKILL)
      var status: Int32 = 0
      _ = waitpid(pid, &status, 0)
    }
    if outputDescriptor >= 0 { close(outputDescriptor) }
  }

  /// Writes all of `bytes` to the child's standard input.
  /// - Throws: `ChildProcessError.inputClosed` when the child stopped reading (exited or
  ///   closed its input), `.timedOut` when it accepted nothing for `writeTimeoutSeconds`.
  public func write(_ bytes: UnsafeRawBufferPointer) throws(ChildProcessError) {
    guard inputDescriptor >= 0, var pointer = bytes.baseAddress else {
      if bytes.isEmpty { return }
      throw .inputClosed(executable)
    }
    var remaining = bytes.count
    while remaining > 0 {
      // MSG_NOSIGNAL does not apply to pipes: SIGPIPE is ignored process-wide instead.
      let written = Glibc.write(inputDescriptor, pointer, remaining)
      if written > 0 {
        remaining -= written
        pointer += written
        continue
      }
      if written < 0, errno == EINTR { continue }
      guard written < 0, errno == EAGAIN else { throw .inputClosed(executable) }
      // The pipe is full: wait for the child to take some of it.
      guard try wait(for: inputDescriptor, events: POLLOUT, seconds: writeTimeoutSeconds) else {
        throw .timedOut(executable, "accept input", writeTimeoutSeconds)
      }
    }
  }

  /// Writes all of `bytes`.
  /// - Throws: as `write(_:)` for a raw buffer.
  public func write(_ bytes: [UInt8]) throws(ChildProcessError) {
    var failure: ChildProcessError?
    bytes.withUnsafeBytes { buffer in
      do throws(ChildProcessError) { try write(buffer) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  /// Reads what the child has written to its standard output, at most `maximum` bytes,
  /// waiting up to `readTimeoutSeconds` for the first; empty at the end of its output.
  /// - Throws: `ChildProcessError.timedOut` when it wrote nothing in time, `.outputNotRead`
  ///   unless the child was started with `.readByCaller`.
  public func readOutput(upTo maximum: Int) throws(ChildProcessError) -> [UInt8] {
    guard outputDescriptor >= 0 else { throw .outputNotRead(executable) }
    var buffer = [UInt8](repeating: 0, count: max(0, maximum))
    while maximum > 0 {
      let count = buffer.withUnsafeMutableBytes { read(outputDescriptor, $0.baseAddress, $0.count) }
      if count >= 0 { return Array(buffer.prefix(count)) }
      if errno == EINTR { continue }
      guard errno == EAGAIN else { return [] }
      guard try wait(for: outputDescriptor, events: POLLIN, seconds: readTimeoutSeconds) else {
        throw .timedOut(executable, "produce output", readTimeoutSeconds)
      }
    }
    return []
  }

  /// Reads exactly `count` bytes of standard output (fewer only at the end of its output),
  /// each wait bounded by `readTimeoutSeconds`.
  /// - Throws: as `readOutput(upTo:)`.
  public func readOutput(exactly count: Int) throws(ChildProcessError) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    while bytes.count < count {
      let more = try readOutput(upTo: count - bytes.count)
      if more.isEmpty { break }
      bytes += more
    }
    return bytes
  }

  /// Waits up to `seconds` for `events` on `descriptor`; false when the time ran out.
  /// An error or hang-up counts as ready: the next read or write reports it.
  private func wait(for descriptor: Int32, events: Int32, seconds: Double)
    throws(ChildProcessError) -> Bool
  {
    let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
    while true {
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { return false }
      let milliseconds =
        left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
      var poller = pollfd(fd: descriptor, events: Int16(events), revents: 0)
      let ready = poll(&poller, 1, Int32(clamping: milliseconds))
      if ready > 0 { return true }
      if ready < 0, errno != EINTR { throw .spawnFailed(executable, Self.errnoText()) }
    }
  }

  /// Closes the child's standard input (end of data).
  public func closeInput() {
    if inputDescriptor >= 0 {
      close(inputDescriptor)
      inputDescriptor = -1
    }
  }

  /// Closes standard input and waits up to `timeoutSeconds` for the child to exit; a child
  /// still running then is killed. Returns how it ended.
  /// - Throws: `ChildProcessError.timedOut` after killing a child that did not exit in time.
  public func finish(timeoutSeconds: Double) throws(ChildProcessError) -> Termination {
    if let termination { return termination }
    closeInput()
    let deadline = ContinuousClock.now + .milliseconds(Int64(timeoutSeconds * 1000))
    var status: Int32 = 0
    var delay = 1
    while true {
      let result = waitpid(pid, &status, WNOHANG)
      if result == pid { break }
      if result < 0, errno != EINTR {
        termination = Termination(exitStatus: nil, signal: nil)
        throw .spawnFailed(executable, Self.errnoText())
      }
      if ContinuousClock.now >= deadline {
        kill(pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
        termination = Termination(exitStatus: nil, signal: SIGKILL)
        stderrCollector.wait(seconds: 1)
        throw .timedOut(executable, "finish", timeoutSeconds)
      }
      usleep(UInt32(delay * 1000))
      delay = min(delay * 2, 50)
    }
    // The readers see end-of-file once the child (and any grandchild holding the pipe) is gone.
    stderrCollector.wait(seconds: 5)
    stdoutCollector?.wait(seconds: 5)
    let ended =
      (status & 0x7f) == 0
      ? Termination(exitStatus: (status >> 8) & 0xff, signal: nil)
      : Termination(exitStatus: nil, signal: status & 0x7f)
    termination = ended
    return ended
  }

  /// The collected standard output (empty unless `.collected`); complete after `finish`.
  public var output: [UInt8] { stdoutCollector?.bytes ?? [] }

  /// The last lines of standard error (at most `count`), trimmed; complete after `finish`.
  public func lastErrorLines(_ count: Int) -> [String] {
    let text = String(decoding: stderrCollector.bytes, as: UTF8.self)
    let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" })
      .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    return Array(lines.suffix(count))
  }

  /// Runs `executable` to completion with `input` on its standard input and returns its
  /// termination and standard output (tests and `ffprobe` use it).
  /// - Throws: `ChildProcessError` when it cannot start, stops reading or outlives
  ///   `timeoutSeconds`.
  public static func run(
    _ executable: String, _ arguments: [String], input: [UInt8] = [],
    timeoutSeconds: Double = 60, environment: [String: String]? = nil
  ) throws(ChildProcessError) -> (Termination, [UInt8], [String]) {
    let child = try ChildProcess(
      executable: executable, arguments: arguments, standardOutput: .collected(limit: 1 << 30),
      environment: environment)
    child.writeTimeoutSeconds = timeoutSeconds
    if !input.isEmpty { try child.write(input) }
    let termination = try child.finish(timeoutSeconds: timeoutSeconds)
    return (termination, child.output, child.lastErrorLines(20))
  }

  /// Ignores SIGPIPE for the process, so a child that exits early turns writes into EPIPE
  /// errors instead of killing ARSim. Called before every spawn (idempotent).
  static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

  /// How often a spawn refused with ETXTBSY is tried, 10 ms apart (0.2 s in all).
  static let busyExecutableAttempts = 20

  private static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// Reads a pipe to its end on a thread of its own, keeping at most `limit` bytes.
private final class PipeCollector: @unchecked Sendable {
  private let lock = NSLock()
  private var collected: [UInt8] = []
  private let done = DispatchSemaphore(value: 0)
  private var finished = false

  init(descriptor: Int32, limit: Int, keepsTail: Bool) {
    let thread = Thread { [self] in
      var buffer = [UInt8](repeating: 0, count: 65536)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        lock.lock()
        collected += buffer[0..<count]
        if collected.count > limit {
          if keepsTail {
            collected.removeFirst(collected.count - limit)
          } else {
            collected.removeLast(collected.count - limit)
          }
        }
        lock.unlock()
      }
      close(descriptor)
      done.signal()
    }
    thread.start()
  }

  /// Waits up to `seconds` for the end of the pipe.
  func wait(seconds: Double) {
    lock.lock()
    let already = finished
    lock.unlock()
    guard !already else { return }
    if done.wait(timeout: .now() + seconds) == .success {
      lock.lock()
      finished = true
      lock.unlock()
    }
  }

  var bytes: [UInt8] {
    lock.lock()
    defer { lock.unlock() }
    return collected
  }
}

/// Why a child process failed.
public enum ChildProcessError: Error, Hashable, Sendable, CustomStringConvertible {
  /// `posix_spawn` failed (reason: the `errno` text).
  case spawnFailed(String, String)
  /// The child no longer reads its standard input.
  case inputClosed(String)
  /// The child did not `operation` within `seconds`.
  case timedOut(String, String, Double)
  /// `readOutput` on a child whose standard output is not `.readByCaller`.
  case outputNotRead(String)

  /// A one-line description.
  public var description: String {
    switch self {
    case .spawnFailed(let executable, let reason): "cannot start \(executable): \(reason)"
    case .inputClosed(let executable): "\(executable) stopped reading its input"
    case .timedOut(let executable, let operation, let seconds):
      "\(executable) did not \(operation) within \(seconds) s (stopped)"
    case .outputNotRead(let executable):
      "\(executable)'s standard output is not read by the caller"
    }
  }
}
