import ARRender
import ARTestSupport
import Foundation
import Testing

@testable import ARSimCLI

/// `arsim render --helper-view` through the command line.
@Suite struct HelperViewCommandTests {
  static let scenes = Fixtures.repositoryPath("Scenes")

  @Test("writes DIR/helper/frame_NNNNN.png at the helper's screen size for each frame written")
  func writesHelperFrames() throws {
    let temporary = TemporaryFolder("helper-cli")
    defer { temporary.remove() }
    let out = temporary.file("out")
    let (code, output) = runCommand([
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
    let (measure, measureOutput) = runCommand([
      "render", Self.scenes + "/tum-measure.json", "--helper-view", "--out", "/nonexistent/x",
    ])
    #expect(measure == 64)
    #expect(measureOutput.standardError.contains("remoteAssist"))
    let (shard, shardOutput) = runCommand([
      "render", Self.scenes + "/tum-desk-circle.json", "--helper-view", "--shard", "1/2",
      "--out", "/nonexistent/x",
    ])
    #expect(shard == 64)
    #expect(shardOutput.standardError.contains("--shard"))
  }
}
