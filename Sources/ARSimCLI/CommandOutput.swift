import ARFormats
import ARSession
import ARSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command writes its text: the process's streams, or a capture for in-process tests.
public struct CommandOutput: Sendable {
  /// Writes to standard output (text is written as given; add your own newline).
  public var standardOutput: @Sendable (String) -> Void
  /// Writes to standard error.
  public var standardError: @Sendable (String) -> Void
  /// Whether standard error is a terminal (progress lines are shown only then).
  public var isTerminal: Bool
  /// Why a write to standard output failed (`No space left on device` for `> /dev/full`), or
  /// nil; `run` turns a failure into exit 74 after the command, whatever the command.
  public var standardOutputFailure: @Sendable () -> String?

  /// Creates an output.
  public init(
    standardOutput: @escaping @Sendable (String) -> Void,
    standardError: @escaping @Sendable (String) -> Void, isTerminal: Bool = false,
    standardOutputFailure: @escaping @Sendable () -> String? = { nil }
  ) {
    self.standardOutput = standardOutput
    self.standardError = standardError
    self.isTerminal = isTerminal
    self.standardOutputFailure = standardOutputFailure
  }

  /// The process's standard output and error (unbuffered `write(2)` calls); the first failed
  /// write to standard output is remembered (`standardOutputFailure`).
  public static var standard: CommandOutput {
    CommandOutput(
      standardOutput: { text in
        if let reason = writeAll(1, text) { StandardOutputFailure.shared.record(reason) }
      },
      standardError: { text in _ = writeAll(2, text) },
      isTerminal: isatty(2) != 0,
      standardOutputFailure: { StandardOutputFailure.shared.reason })
  }

  /// Writes all of `text`; the system's reason when a write fails.
  private static func writeAll(_ fd: Int32, _ text: String) -> String? {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n < 0 { return String(cString: strerror(errno)) }
      if n == 0 { return "nothing written" }
      bytes = bytes.dropFirst(n)
    }
    return nil
  }

  func print(_ line: String) { standardOutput(line + "\n") }
  /// Writes `line` on standard error with its control characters escaped (line breaks kept):
  /// a message never carries an input's raw bytes to the terminal.
  func printError(_ line: String) {
    standardError(InputText.escaped(line, keepingNewlines: true) + "\n")
  }
}

/// The first failed write to the process's standard output (there is one per process).
final class StandardOutputFailure: @unchecked Sendable {
  static let shared = StandardOutputFailure()
  private let lock = NSLock()
  private var first: String?

  var reason: String? { lock.withLock { first } }

  func record(_ reason: String) { lock.withLock { if first == nil { first = reason } } }
}
