import ARFormats
import ARSession
import ARSupport

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

  /// Creates an output.
  public init(
    standardOutput: @escaping @Sendable (String) -> Void,
    standardError: @escaping @Sendable (String) -> Void, isTerminal: Bool = false
  ) {
    self.standardOutput = standardOutput
    self.standardError = standardError
    self.isTerminal = isTerminal
  }

  /// The process's standard output and error (unbuffered `write(2)` calls).
  public static var standard: CommandOutput {
    CommandOutput(
      standardOutput: { text in writeAll(1, text) },
      standardError: { text in writeAll(2, text) },
      isTerminal: isatty(2) != 0)
  }

  private static func writeAll(_ fd: Int32, _ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return }
      bytes = bytes.dropFirst(n)
    }
  }

  func print(_ line: String) { standardOutput(line + "\n") }
  /// Writes `line` on standard error with its control characters escaped (line breaks kept):
  /// a message never carries an input's raw bytes to the terminal.
  func printError(_ line: String) {
    standardError(InputText.escaped(line, keepingNewlines: true) + "\n")
  }
}
