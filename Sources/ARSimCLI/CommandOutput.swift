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

  /// The process's standard output and error.
  public static var standard: CommandOutput {
    CommandOutput(
      standardOutput: { text in
        fputs(text, stdout)
        fflush(stdout)
      },
      standardError: { text in fputs(text, stderr) },
      isTerminal: isatty(2) != 0)
  }

  func print(_ line: String) { standardOutput(line + "\n") }
  func printError(_ line: String) { standardError(line + "\n") }
}
