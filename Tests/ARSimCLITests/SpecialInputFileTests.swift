import ARRender
import ARTestSupport
import Foundation
import Testing

/// Inputs that are not regular files — a device or a FIFO behind an image, a recording or a
/// video — are refused when the scene loads (66, naming the scene field), before any output,
/// as every other input is (Robustness.md). `/dev/null` stands in for a device: before the rule
/// it read as empty and the run went on, so these tests fail without it and cannot hang.
@Suite("Inputs that are not regular files")
struct SpecialInputFileTests {
  let folder = TemporaryFolder("special-input")

  /// A minimal scene with `background` (JSON) and the bundled TUM track.
  func scene(background: String) throws -> String {
    try FileManager.default.copyItem(
      atPath: Fixtures.repositoryPath("Scenes/Inputs/tum_fr1_xyz_groundtruth.txt"),
      toPath: folder.file("track.txt"))
    return folder.write(
      """
      {"name":"t","track":{"path":"track.txt"},"output":{"width":16,"height":12},
       "duration":0.1,"background":\(background)}
      """, to: "scene.json")
  }

  @Test("a device among background.images is refused at load, naming the field")
  func deviceAmongImages() throws {
    defer { folder.remove() }
    try Image(width: 4, height: 4).writePNG(to: folder.folder("bg") + "/a.png")
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("bg/b.png"), withDestinationPath: "/dev/null")
    let path = try scene(background: #"{"images":"bg"}"#)
    let (status, output) = runCommand(["render", path, "--out", folder.file("out")])
    #expect(status == 66)
    #expect(output.standardError.contains("bg/b.png"))
    #expect(output.standardError.contains("is not a regular file but a character device"))
    #expect(output.standardError.contains("'background.images'"))
    #expect(!FileManager.default.fileExists(atPath: folder.file("out")))
  }

  @Test("a FIFO among background.images is refused without blocking")
  func fifoAmongImages() throws {
    defer { folder.remove() }
    try Image(width: 4, height: 4).writePNG(to: folder.folder("bg") + "/a.png")
    #expect(mkfifo(folder.file("bg/b.png"), 0o644) == 0)
    let path = try scene(background: #"{"images":"bg"}"#)
    let (status, output) = runCommand(["render", path, "--out", folder.file("out")])
    #expect(status == 66)
    #expect(output.standardError.contains("is not a regular file but a FIFO"))
  }

  @Test("a recording list line naming a FIFO is refused at load, naming the list's line")
  func fifoInRecordingList() throws {
    defer { folder.remove() }
    try Image(width: 4, height: 4).writePNG(to: folder.folder("rgb") + "/a.png")
    #expect(mkfifo(folder.file("rgb/fifo.png"), 0o644) == 0)
    // A writer held open for at most 10 s: a reader that blocks on the FIFO (as the scene's
    // hash did) sees its end then, so the test fails instead of hanging without the rule.
    let writer = OnceClosed(open(folder.file("rgb/fifo.png"), O_RDWR | O_NONBLOCK))
    defer { writer.close() }
    DispatchQueue.global().asyncAfter(deadline: .now() + 10) { writer.close() }
    folder.write("1305031098.6659 rgb/a.png\n1305031098.70 rgb/fifo.png\n", to: "rgb.txt")
    let path = try scene(background: #"{"recording":{"list":"rgb.txt"}}"#)
    let (status, output) = runCommand(["render", path, "--out", folder.file("out")])
    #expect(status == 66)
    #expect(output.standardError.contains("rgb.txt:2: field 'filename'"))
    #expect(output.standardError.contains("(named by "), "\(output.standardError)")
    #expect(output.standardError.contains("'background.recording.list'"))
    #expect(output.standardError.contains("is not a regular file but a FIFO"))
    #expect(!FileManager.default.fileExists(atPath: folder.file("out")))
  }

  @Test("recording.video naming a device is refused before ffprobe runs")
  func deviceAsVideo() throws {
    defer { folder.remove() }
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("v.mp4"), withDestinationPath: "/dev/null")
    let path = try scene(background: #"{"recording":{"video":"v.mp4"}}"#)
    let (status, output) = runCommand(["render", path, "--out", folder.file("out")])
    #expect(status == 66)
    #expect(output.standardError.contains("'background.recording.video'"))
    #expect(output.standardError.contains("is not a regular file but a character device"))
  }

  @Test("a missing recorded image is a warning event naming its line; the previous image stays")
  func missingRecordedImage() throws {
    defer { folder.remove() }
    try Image(width: 4, height: 4).writePNG(to: folder.folder("rgb") + "/a.png")
    folder.write(
      "1305031098.6659 rgb/a.png\n1305031098.70 rgb/missing.png\n", to: "rgb.txt")
    let path = try scene(background: #"{"recording":{"list":"rgb.txt"}}"#)
    let (status, output) = runCommand(["render", path, "--out", folder.file("out")])
    #expect(status == 0, "\(output.standardError)")
    let events = try String(contentsOfFile: folder.file("out/events.jsonl"), encoding: .utf8)
    let warning = events.split(separator: "\n").first { $0.contains("missing.png") }
    #expect(warning?.contains(#""event":"warning""#) == true)
    #expect(warning?.contains(#""line":2"#) == true)
    #expect(FileManager.default.fileExists(atPath: folder.file("out/frame_00002.png")))
  }
}

/// A descriptor closed once, by whichever of the test and its timer comes first (a second
/// close could hit a descriptor the number was reused for).
final class OnceClosed: @unchecked Sendable {
  private let lock = NSLock()
  private var descriptor: Int32

  init(_ descriptor: Int32) { self.descriptor = descriptor }

  func close() {
    lock.withLock {
      if descriptor >= 0 { _ = Glibc.close(descriptor) }
      descriptor = -1
    }
  }
}
