import ARTestSupport
import Foundation
import Testing

@testable import ARSimCLI

/// `arsim stream` and `arsim render --strokes-port` render one camera: a scene with several
/// views is refused before any socket or file, as `--helper-view` refuses a scene without
/// remoteAssist.
@Suite struct LiveSceneRefusalTests {
  static let collab = Fixtures.repositoryPath("Scenes/collab-three.json")

  @Test(
    "a collaborative scene: 64, naming the option, the views and what to run instead",
    arguments: [
      (["render", collab, "--strokes-port", "0"], "--strokes-port"),
      (
        [
          "stream", collab, "--port", "9", "--tx-token", "EXT", "--rx-token", "APP",
          "--connect-timeout", "1",
        ], "arsim stream"
      ),
    ])
  func refused(arguments: [String], named: String) {
    let out = NSTemporaryDirectory() + "arsim-live-refusal-\(UUID().uuidString)"
    let (code, output) = runCommand(arguments + ["--out", out])
    #expect(code == 64, "\(output.standardError)")
    #expect(
      output.standardError.contains(
        "\(named) needs a scene with one view; \(Self.collab) has 3 (A, B, C)"),
      "\(output.standardError)")
    #expect(output.standardError.contains("--participant ID"))
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  static let house = Fixtures.repositoryPath("Scenes/tum-house-undo.json")

  /// Port 9 (discard) on loopback has no listener here: a stream that got as far as
  /// connecting would fail with 69, not 64.
  @Test(
    "stream: --frames outside the scene and --strokes-port equal to --port are 64 before any socket",
    arguments: [
      (["--frames", "400..500"], "--frames 400..500 is outside the scene's frames 0..300"),
      (["--strokes-port", "9"], "--strokes-port 9 is the receiver's --port"),
    ])
  func refusedBeforeConnecting(extra: [String], message: String) {
    let out = NSTemporaryDirectory() + "arsim-live-refusal-\(UUID().uuidString)"
    let (code, output) = runCommand(
      [
        "stream", Self.house, "--port", "9", "--tx-token", "EXT", "--rx-token", "APP",
        "--connect-timeout", "1", "--out", out,
      ] + extra)
    #expect(code == 64, "\(output.standardError)")
    #expect(output.standardError.contains(message), "\(output.standardError)")
    #expect(!output.standardError.contains("connecting to"), "\(output.standardError)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}
