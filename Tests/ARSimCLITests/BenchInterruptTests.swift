import ARTestSupport
import Foundation
import Testing

/// An interrupted `arsim bench` removes its private folder (the built binary, in a process of
/// its own: the signal ends it).
@Suite("bench: interrupted")
struct BenchInterruptTests {
  static var repository: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().path
  }

  @Test(
    "SIGTERM and SIGINT during a bench remove /tmp/arsim-bench-XXXXXX",
    arguments: [SIGTERM, SIGINT])
  func signalRemovesFolder(signal: Int32) throws {
    let arsim = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("arsim").path
    try #require(FileManager.default.fileExists(atPath: arsim), "build arsim first: \(arsim)")
    // TMPDIR of its own, so the bench's folder is found (and nothing else is there).
    let temporary = TemporaryFolder("bench-interrupt")
    defer { temporary.remove() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arsim)
    // Far more frames than it renders in the 20 s after the signal: only the signal can end it
    // in time (300 could end by themselves on a quiet machine, passing with the signal lost).
    process.arguments = ["bench", "B1", "--frames", "1200"]
    process.currentDirectoryURL = URL(fileURLWithPath: Self.repository)
    var environment = ProcessInfo.processInfo.environment
    environment["TMPDIR"] = temporary.path
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    // SIGKILL: a bench that ignored one signal may ignore SIGTERM too.
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    // Until the bench has written a frame into its folder (at most 60 s).
    func benchFolders() -> [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []).filter {
        $0.hasPrefix("arsim-bench-")
      }
    }
    let deadline = Date(timeIntervalSinceNow: 60)
    var wrote = false
    while !wrote, process.isRunning, Date() < deadline {
      if let folder = benchFolders().first {
        let b1 = temporary.file(folder + "/B1")
        wrote = ((try? FileManager.default.contentsOfDirectory(atPath: b1)) ?? []).contains {
          $0.hasPrefix("frame_")
        }
      }
      usleep(20_000)
    }
    try #require(wrote, "the bench wrote no frame within 60 s")
    kill(process.processIdentifier, signal)
    let end = Date(timeIntervalSinceNow: 20)
    while process.isRunning, Date() < end { usleep(20_000) }
    guard !process.isRunning else {
      Issue.record("the bench did not end within 20 s of signal \(signal)")
      return
    }
    // Ended, not crashed (the exit status after the signal varies: the signal, or 73 when a
    // write the removal interrupted fails first); the folder is what this test is about.
    let crashed =
      process.terminationReason == .uncaughtSignal
      && [SIGILL, SIGABRT, SIGSEGV, SIGBUS].contains(process.terminationStatus)
    #expect(!crashed, "bench crashed with signal \(process.terminationStatus)")
    #expect(benchFolders().isEmpty, "\(benchFolders())")
  }
}
