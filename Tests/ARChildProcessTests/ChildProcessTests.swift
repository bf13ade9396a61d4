import ARChildProcess
import Foundation
import Testing

/// Every wait on a child is bounded: writes to a child that stopped reading and reads from a
/// child that writes nothing end after their timeout, not when the child decides to exit.
/// The children are `/bin/sh` one-liners whose own `sleep` ends them in any case.
@Suite struct ChildProcessTests {
  static let shell = "/bin/sh"

  @Test("a write larger than the pipe to a child that never reads times out, with its words")
  func writeToStalledChild() throws {
    let child = try ChildProcess(
      executable: Self.shell, arguments: ["-c", "echo 'stalled: not reading' >&2; exec sleep 20"])
    child.writeTimeoutSeconds = 1
    let start = ContinuousClock.now
    // 1 MiB: far more than a pipe holds (64 KiB), so the write must wait for the reader.
    #expect(throws: ChildProcessError.timedOut(Self.shell, "accept input", 1)) {
      try child.write([UInt8](repeating: 7, count: 1 << 20))
    }
    let waited = ContinuousClock.now - start
    #expect(waited >= .milliseconds(900) && waited < .seconds(8), "waited \(waited)")
    kill(child.pid, SIGKILL)
    _ = try? child.finish(timeoutSeconds: 5)
    #expect(child.lastErrorLines(2) == ["stalled: not reading"])
  }

  @Test("a child that exits while written to gives inputClosed, not a hang or SIGPIPE")
  func writeToExitedChild() throws {
    let child = try ChildProcess(executable: Self.shell, arguments: ["-c", "exit 3"])
    child.writeTimeoutSeconds = 10
    #expect(throws: ChildProcessError.inputClosed(Self.shell)) {
      try child.write([UInt8](repeating: 1, count: 1 << 20))
    }
    #expect(try child.finish(timeoutSeconds: 5).exitStatus == 3)
  }

  @Test("output read by the caller: exact bytes as written, then the end of output")
  func readOutput() throws {
    // 200 000 bytes (more than a pipe holds) written by the child while the caller reads.
    let child = try ChildProcess(
      executable: Self.shell, arguments: ["-c", "head -c 200000 /dev/zero | tr '\\0' 'a'"],
      standardOutput: .readByCaller)
    child.readTimeoutSeconds = 10
    let bytes = try child.readOutput(exactly: 200_000)
    #expect(bytes.count == 200_000 && bytes.allSatisfy { $0 == UInt8(ascii: "a") })
    #expect(try child.readOutput(upTo: 10).isEmpty)
    #expect(try child.finish(timeoutSeconds: 5).succeeded)
  }

  @Test("a read from a child that writes nothing times out")
  func readFromSilentChild() throws {
    let child = try ChildProcess(
      executable: Self.shell, arguments: ["-c", "exec sleep 20"], standardOutput: .readByCaller)
    child.readTimeoutSeconds = 0.5
    let start = ContinuousClock.now
    #expect(throws: ChildProcessError.timedOut(Self.shell, "produce output", 0.5)) {
      _ = try child.readOutput(upTo: 4096)
    }
    #expect(ContinuousClock.now - start < .seconds(8))
    kill(child.pid, SIGKILL)
    _ = try? child.finish(timeoutSeconds: 5)
  }

  @Test("reading a child whose output is discarded is an error, not a hang")
  func readDiscardedOutput() throws {
    let child = try ChildProcess(executable: Self.shell, arguments: ["-c", "exit 0"])
    #expect(throws: ChildProcessError.outputNotRead(Self.shell)) {
      _ = try child.readOutput(upTo: 1)
    }
    _ = try child.finish(timeoutSeconds: 5)
  }
}
