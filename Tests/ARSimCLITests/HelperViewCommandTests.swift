import ARRender
import Foundation
import Testing

@testable import ARSimCLI

/// `arsim render --helper-view` through the command line.
@Suite struct HelperViewCommandTests {
  static let scenes = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scenes").path

  func run(_ arguments: [String]) -> (Int32, CapturedOutput) {
    let captured = CapturedOutput()
    let code = ARSimCLI.run(arguments: arguments, output: captured.output)
    return (code, captured)
  }

  @Test("writes DIR/helper/frame_NNNNN.png at the helper's screen size for each frame written")
  func writesHelperFrames() throws {
    let out = NSTemporaryDirectory() + "arsim-helper-cli-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: out) }
    let (code, output) = run([
      "render", Self.scenes + "/tum-desk-circle-surface.json", "--frames", "100..101",
      "--threads", "1", "--helper-view", "--out", out,
    ])
    #expect(code == 0, "\(output.standardError)")
    for frame in ["frame_00100.png", "frame_00101.png"] {
      let image = try Image(contentsOfPNG: out + "/helper/" + frame)
      #expect(image.width == 844 && image.height == 390)
    }
  }

  @Test("refused (64) for a scene without remoteAssist and together with --shard")
  func refused() {
    let (measure, measureOutput) = run([
      "render", Self.scenes + "/tum-measure.json", "--helper-view", "--out", "/nonexistent/x",
    ])
    #expect(measure == 64)
    #expect(measureOutput.standardError.contains("remoteAssist"))
    let (shard, shardOutput) = run([
      "render", Self.scenes + "/tum-desk-circle.json", "--helper-view", "--shard", "1/2",
      "--out", "/nonexistent/x",
    ])
    #expect(shard == 64)
    #expect(shardOutput.standardError.contains("--shard"))
  }
}
