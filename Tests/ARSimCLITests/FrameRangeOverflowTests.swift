import ARTestSupport
import Foundation
import Testing

/// `--frames 0..9223372036854775807` (Int.max) trapped with SIGILL in `ClosedRange.count`
/// (`ReplayScene.frames`) instead of the usage error `--frames 0..99999999999` gets (a
/// newcomer's finding): render, a collaborative scene, stream, `render --strokes-port` and a
/// shard of it are all 64, before anything is written.
@Suite("--frames up to Int.max")
struct FrameRangeOverflowTests {
  static let house = Fixtures.repositoryPath("Scenes/tum-house-undo.json")
  static let collab = Fixtures.repositoryPath("Scenes/collab-three.json")
  static let huge = "0..9223372036854775807"

  @Test(
    "a range ending at Int.max is a usage error (64) naming the option, in every command",
    arguments: [
      (["render", house], "0..300"),
      (["render", collab], nil),
      (["render", house, "--shard", "1/2"], "0..300"),
      (["render", house, "--strokes-port", "0"], "0..300"),
      (
        [
          "stream", house, "--port", "9", "--tx-token", "EXT", "--rx-token", "APP",
          "--connect-timeout", "1",
        ], "0..300"
      ),
    ] as [([String], String?)])
  func refused(command: [String], frames: String?) {
    let folder = TemporaryFolder("frames-overflow")
    defer { folder.remove() }
    let out = folder.file("out")
    let (code, output) = runCommand(command + ["--frames", Self.huge, "--out", out])
    #expect(code == 64, "\(output.standardError)")
    #expect(
      output.standardError.contains(
        "--frames \(Self.huge) is outside the scene's frames \(frames ?? "")"),
      "\(output.standardError)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}
