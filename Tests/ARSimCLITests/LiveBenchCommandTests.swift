import ARSupport
import ARTestSupport
import Foundation
import Testing

@testable import ARSimCLI

/// `arsim bench live`: its folder and its verdict when nothing arrived.
@Suite("arsim bench live")
struct LiveBenchCommandTests {
  static let track = Fixtures.repositoryPath("Scenes/Inputs/arkit_datalogger_camera_pose.txt")

  /// Two frames (0.1 s at 10 frames/s) at 64 × 36, unpaced.
  static let short = [
    "bench", "live", "--seconds", "0.1", "--fps", "10", "--size", "64x36",
    "--as-fast-as-possible", "--threads", "1", "--track", track,
  ]

  @Test("without --out: a new private folder in $TMPDIR, removed afterwards")
  func privateFolder() throws {
    let (code, output) = runCommand(Self.short)
    #expect(code == 0, "\(output.standardError)")
    #expect(output.standardOutput.contains("received 2, 0 missing"), "\(output.standardOutput)")
    let line = output.standardOutput.split(separator: "\n").first {
      $0.hasPrefix("bench: writing into ")
    }
    let folder = line.map { String($0.dropFirst(20).prefix { $0 != " " }) } ?? ""
    var base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
    if base.isEmpty { base = "/tmp" }
    while base.count > 1, base.hasSuffix("/") { base.removeLast() }
    #expect(folder.hasPrefix(base + "/arsim-bench-"), "\(output.standardOutput)")
    #expect(!folder.hasPrefix("/tmp/arsim-bench/"))
    #expect(!folder.isEmpty && !FileManager.default.fileExists(atPath: folder))
  }

  @Test("a sender that cannot write (its folder locked by another run) is an error, not 0")
  func nothingReceived() throws {
    let temporary = TemporaryFolder("live-bench")
    defer { temporary.remove() }
    let out = temporary.file("out")
    try FileIO.createDirectory(out + "/sent")
    // What a concurrent run into the same folder holds.
    let lock = try OutputFolder(out + "/sent").lock(waiting: false)
    defer { lock.release() }
    let (code, output) = runCommand(Self.short + ["--out", out])
    #expect(code != 0, "\(output.standardOutput)")
    #expect(code == 75, "\(output.standardError)")
    #expect(output.standardError.contains(out + "/sent"), "\(output.standardError)")
  }

  @Test("--fps above the AR rate (up to 240) runs; a missing --track is 66 naming it")
  func fastAndMissingTrack() throws {
    var fast = Self.short
    fast[try #require(fast.firstIndex(of: "10"))] = "120"
    let (code, output) = runCommand(fast)
    #expect(code == 0, "\(output.standardError)")
    #expect(output.standardOutput.contains("0 missing"), "\(output.standardOutput)")
    var missing = Self.short
    missing[missing.count - 1] = "/nonexistent/camera_pose.txt"
    let (missingCode, missingOutput) = runCommand(missing)
    #expect(missingCode == 66, "\(missingOutput.standardError)")
    #expect(
      missingOutput.standardError.contains("/nonexistent/camera_pose.txt: --track: no such file"),
      "\(missingOutput.standardError)")
  }

  @Test("the verdict: a receiver that got no frames exits 69 naming what was sent")
  func verdict() {
    let (code, message) = LiveBenchCommand.verdict(received: 0, sent: 0, produced: 121)
    #expect(code == .unavailable)
    #expect(
      message
        == "arsim bench live: the receiver got no frames (0 sent of 121): nothing was measured")
    #expect(LiveBenchCommand.verdict(received: 1, sent: 1, produced: 121).0 == .ok)
  }
}
