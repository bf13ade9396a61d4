import ARRender
import ARTestSupport
import Foundation
import Testing

@testable import ARSimCLI

/// `arsim receive` into a folder an earlier run wrote frames into says how many it left, as
/// `render` does (a newcomer's finding: a second receive that timed out left three earlier
/// frames beside an empty received.jsonl without a word). Loopback; the accept wait is 0.2 s.
@Suite struct ReceiveEarlierFramesTests {
  @Test("no sender: 69, and a note counting the earlier run's frame files")
  func noteWhenNoSender() throws {
    let folder = TemporaryFolder("receive-earlier").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let image = Image(width: 2, height: 2, fill: (1, 2, 3, 255))
    for name in ["frame_00000.png", "frame_00001.png", "depth_00000.png"] {
      try image.writePNG(to: folder + "/" + name)
    }
    let (code, output) = runCommand([
      "receive", "--port", "0", "--peer-token", "TX", "--my-token", "RX", "--out", folder,
      "--accept-timeout", "0.2",
    ])
    #expect(code == 69, "\(output.standardError)")
    #expect(
      output.standardError.contains(
        "note: \(folder) also holds 2 frame files from earlier runs (received.jsonl lists this run's)"
      ), "\(output.standardError)")
    // The earlier frames stay.
    #expect(FileManager.default.fileExists(atPath: folder + "/frame_00001.png"))
  }
}
