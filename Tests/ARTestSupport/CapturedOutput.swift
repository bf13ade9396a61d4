import ARSimCLI
import Foundation

/// Standard output and error of an in-process `arsim` run, collected from any thread (the
/// frame loop and live runs write from several).
public final class CapturedOutput: @unchecked Sendable {
  private let lock = NSLock()
  private var out = ""
  private var err = ""

  /// An empty capture.
  public init() {}

  /// Everything written to standard output so far.
  public var standardOutput: String { lock.withLock { out } }
  /// Everything written to standard error so far.
  public var standardError: String { lock.withLock { err } }

  /// An output that appends to this capture (`isTerminal` false: no progress lines).
  public var output: CommandOutput {
    CommandOutput(
      standardOutput: { text in self.lock.withLock { self.out += text } },
      standardError: { text in self.lock.withLock { self.err += text } })
  }
}

/// Runs `arsim ARGUMENTS` in process with the built-in session kinds and returns its exit code
/// and what it wrote.
public func runCommand(_ arguments: [String]) -> (status: Int32, output: CapturedOutput) {
  let captured = CapturedOutput()
  let status = run(arguments: arguments, output: captured.output)
  return (status, captured)
}
