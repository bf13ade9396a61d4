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

  /// A scene file called `events.jsonl` (or `trace.jsonl`) in `--out`: a live run wrote
  /// `events.jsonl` when its connection failed, over the scene (a newcomer's finding), and
  /// found the other names only after connecting or binding.
  @Test(
    "stream and render --strokes-port refuse to overwrite the scene file (64) before any socket",
    arguments: ["events.jsonl", "trace.jsonl"])
  func sceneAmongOutputs(name: String) throws {
    let root = try VideoOverwriteTests.makeRoot()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let scene = root + "/" + name
    try VideoOverwriteTests.scene.write(toFile: scene, atomically: true, encoding: .utf8)
    let before = try Data(contentsOf: URL(fileURLWithPath: scene))
    let runs: [[String]] = [
      [
        "stream", scene, "--port", "9", "--tx-token", "EXT", "--rx-token", "APP",
        "--connect-timeout", "1", "--out", root,
      ],
      ["render", scene, "--strokes-port", "0", "--out", root],
    ]
    for arguments in runs {
      let (code, output) = runCommand(arguments)
      #expect(code == 64, "\(arguments[0]): \(output.standardError)")
      #expect(
        output.standardError.contains("\(root)/\(name): would overwrite the input"),
        "\(output.standardError)")
      #expect(!output.standardError.contains("connecting to"), "\(output.standardError)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: scene)) == before, "\(arguments[0])")
      #expect(!FileManager.default.fileExists(atPath: root + "/strokes-received.jsonl"))
      #expect(!FileManager.default.fileExists(atPath: root + "/.arsim-lock"))
    }
  }

  @Test(
    "stream: render's own options are named as render's (64), not suggested as misspellings",
    arguments: [["--hud"], ["--video", "v.mp4"], ["--report"], ["--debug=feature-points"]])
  func renderOptionOnStream(extra: [String]) {
    let out = NSTemporaryDirectory() + "arsim-live-refusal-\(UUID().uuidString)"
    let (code, output) = runCommand(
      [
        "stream", Self.house, "--port", "9", "--tx-token", "EXT", "--rx-token", "APP",
        "--out", out,
      ] + extra)
    let name = String(extra[0].prefix { $0 != "=" })
    #expect(code == 64, "\(output.standardError)")
    #expect(
      output.standardError.contains("\(name) is an option of arsim render, not of arsim stream"),
      "\(output.standardError)")
    #expect(!output.standardError.contains("did you mean"), "\(output.standardError)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  /// The wire format carries at most 8192 pixels a side; a scene may ask for up to 16384.
  @Test(
    "stream: an output over 8192 pixels a side is 65 before any socket, naming the field",
    arguments: [(8193, 1, "output.width"), (16, 9000, "output.height")])
  func overWireSize(width: Int, height: Int, field: String) throws {
    let folder = NSTemporaryDirectory() + "arsim-live-size-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let track = Fixtures.repositoryPath("Scenes/Inputs/tum_fr1_xyz_groundtruth.txt")
    let scene = folder + "/wide.json"
    try Data(
      """
      {
        "name": "wide",
        "track": {"path": "\(track)", "format": "tum"},
        "output": {"width": \(width), "height": \(height), "fps": 30},
        "duration": 0.1
      }
      """.utf8
    ).write(to: URL(fileURLWithPath: scene))
    let out = folder + "/out"
    let (code, output) = runCommand([
      "stream", scene, "--port", "9", "--tx-token", "EXT", "--rx-token", "APP",
      "--connect-timeout", "1", "--out", out,
    ])
    #expect(code == 65, "\(output.standardError)")
    #expect(
      output.standardError.contains("wide.json:4: field '\(field)'"), "\(output.standardError)")
    #expect(output.standardError.contains("8192 pixels a side"), "\(output.standardError)")
    #expect(!output.standardError.contains("connecting to"), "\(output.standardError)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}
