import Foundation

/// The `arsim` executable of the test build (beside the test bundle), run in a process of its
/// own for tests that need a working folder, raw argument bytes or a signal.
public enum BuiltArsim {
  /// Its path; it exists once `swift build --build-tests` (or `swift test`) has built it.
  public static var path: String {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("arsim").path
  }

  /// Runs `executable` with `arguments` in `directory` (the current one when nil), waits at
  /// most `seconds` (then terminates it) and returns its exit status and standard error (read
  /// after the exit: for commands that write less than a pipe holds, 64 KiB).
  /// - Throws: what `Process.run` throws when it cannot start.
  public static func run(
    _ executable: String, _ arguments: [String], directory: String? = nil, seconds: Double = 60
  ) throws -> (status: Int32, standardError: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let deadline = Date(timeIntervalSinceNow: seconds)
    while process.isRunning, Date() < deadline { usleep(10_000) }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return (process.terminationStatus, text)
  }
}
