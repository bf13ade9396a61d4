import ARTestSupport
import Foundation
import Testing

/// A command whose standard output cannot be written (`> /dev/full`) exits 74 with the reason,
/// whatever the command: its listing or report never reached the reader.
@Suite("Standard output write errors")
struct StandardOutputErrorTests {
  /// Runs the built `arsim` (beside the test executable) with standard output on /dev/full.
  static func runToFullDevice(_ arguments: [String]) throws -> (Int32, String) {
    let arsim = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("arsim").path
    try #require(FileManager.default.fileExists(atPath: arsim), "build arsim first: \(arsim)")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arsim)
    process.arguments = arguments
    process.standardOutput = try #require(FileHandle(forWritingAtPath: "/dev/full"))
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
  }

  @Test(
    "help, --version and track info to /dev/full exit 74",
    arguments: [
      ["help"], ["--version"], ["render", "--help"],
      ["track", "info", Fixtures.repositoryPath("Scenes/Inputs/tum_fr1_xyz_groundtruth.txt")],
    ])
  func fullDevice(arguments: [String]) throws {
    let (status, errors) = try Self.runToFullDevice(arguments)
    #expect(status == 74, "\(errors)")
    #expect(errors.contains("cannot write standard output: No space left on device"))
  }

  @Test("a reader that closed its end (| head) gives 74, not death by SIGPIPE (141)")
  func closedPipe() throws {
    let arsim = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("arsim").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arsim)
    process.arguments = ["help"]
    let output = Pipe()
    try output.fileHandleForReading.close()
    process.standardOutput = output
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    try output.fileHandleForWriting.close()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit && process.terminationStatus == 74, "\(text)")
    #expect(text.contains("cannot write standard output: Broken pipe"))
  }

  @Test("an error exit stays when nothing was written to standard output")
  func errorsUnchanged() throws {
    let (status, _) = try Self.runToFullDevice(["track", "info", "/nonexistent/track.txt"])
    #expect(status == 66)
  }
}
