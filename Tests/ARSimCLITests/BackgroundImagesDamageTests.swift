import ARRender
import ARTestSupport
import Foundation
import Testing

/// A damaged PNG in `background.images` (a newcomer's finding): the error names the scene
/// file, line and field and the frame; what the header shows is refused at load; a run
/// stopped part way publishes its frames with their lines and no run.json.
@Suite struct BackgroundImagesDamageTests {
  /// A folder with the fr1/xyz track and a 3-frame scene showing the PNGs in `bg`.
  static func folder(_ label: String) throws -> (TemporaryFolder, scene: String) {
    let folder = TemporaryFolder(label)
    try FileManager.default.copyItem(
      atPath: Fixtures.repositoryPath("Scenes/Inputs/tum_fr1_xyz_groundtruth.txt"),
      toPath: folder.file("track.txt"))
    let scene = folder.write(
      """
      {"name": "t", "track": {"path": "track.txt", "format": "tum"},
       "output": {"width": 16, "height": 12, "fps": 10}, "frames": 3,
       "background": {"images": "bg"}}
      """, to: "scene.json")
    return (folder, scene)
  }

  /// A 32 × 24 PNG of noise (several KB, so its first 500 bytes are a truncated PNG).
  static func goodPNG() throws -> [UInt8] {
    var image = Image(width: 32, height: 24)
    var state: UInt32 = 12345
    for y in 0..<24 {
      for x in 0..<32 {
        state = state &* 1_664_525 &+ 1_013_904_223
        image[x, y] = (UInt8(state >> 24), UInt8(state >> 16 & 0xFF), UInt8(state >> 8 & 0xFF), 255)
      }
    }
    return try image.pngData()
  }

  @Test("a truncated PNG met mid-run names the frame and the scene field; frame 0 stays whole")
  func truncatedMidRun() throws {
    let (folder, scene) = try Self.folder("background-truncated")
    defer { folder.remove() }
    let good = try Self.goodPNG()
    #expect(good.count > 500)
    folder.write(good, to: "bg/a.png")
    folder.write(Array(good.prefix(500)), to: "bg/b.png")
    let out = folder.file("out")
    let (status, output) = runCommand(["render", scene, "--out", out])
    #expect(status == 65)
    #expect(
      output.standardError.contains(
        "bg/b.png: frame 1's background: invalid PNG: "), "\(output.standardError)")
    #expect(
      output.standardError.contains("(named by \(scene):3: field 'background.images')"),
      "\(output.standardError)")
    // Published as Robustness.md says for a run stopped by an error: frame 0 with its lines,
    // nothing of frame 1, no run.json (it describes finished runs only).
    let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
    #expect(names == [".arsim-lock", "events.jsonl", "frame_00000.png", "trace.jsonl"])
    let trace = try String(contentsOfFile: out + "/trace.jsonl", encoding: .utf8)
      .split(separator: "\n")
    #expect(trace.count == 1 && trace[0].hasPrefix("{\"frame\":0,"))
    let events = try String(contentsOfFile: out + "/events.jsonl", encoding: .utf8)
      .split(separator: "\n")
    #expect(events.allSatisfy { $0.contains("\"frame\":0") })
    #expect(try Image(contentsOfPNG: out + "/frame_00000.png").width == 16)
  }

  @Test(
    "a header declaring 16385×10 or 0×0 pixels, or no PNG at all, is refused at load",
    arguments: [
      ("16385×10", "image of 16385×10 pixels is over the limit"),
      ("0×0", "image of 0×0 pixels is empty"),
      ("text", "not a PNG file"),
    ])
  func refusedAtLoad(_ kind: String, _ reason: String) throws {
    let (folder, scene) = try Self.folder("background-header")
    defer { folder.remove() }
    folder.write(try Self.goodPNG(), to: "bg/a.png")
    var bad: [UInt8]
    switch kind {
    case "16385×10": bad = ZeroPNG.bytes(width: 16385, height: 10)
    case "0×0":
      bad = ZeroPNG.bytes(width: 1, height: 1)
      bad.replaceSubrange(16..<24, with: [UInt8](repeating: 0, count: 8))
    default: bad = Array("not an image\n".utf8)
    }
    folder.write(bad, to: "bg/b.png")
    let out = folder.file("out")
    let (status, output) = runCommand(["render", scene, "--out", out])
    #expect(status == 65)
    #expect(
      output.standardError.contains("bg/b.png: invalid PNG: \(reason)"), "\(output.standardError)")
    #expect(
      output.standardError.contains("(named by \(scene):3: field 'background.images')"),
      "\(output.standardError)")
    #expect(!FileManager.default.fileExists(atPath: out + "/frame_00000.png"))
  }
}
