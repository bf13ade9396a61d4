import ARRender
import ARTestSupport
import Foundation
import Testing

/// Exit codes that named the wrong culprit: bad input reported as an output failure (73).
@Suite("Exit codes for bad input to video commands")
struct ExitCodeFindingsTests {
  let folder = TemporaryFolder("exit-codes")

  /// A minimal scene with `background` (JSON), 64×48, 0.1 s, and the bundled TUM track.
  func scene(_ background: String? = nil) throws -> String {
    try FileManager.default.copyItem(
      atPath: Fixtures.repositoryPath("Scenes/Inputs/tum_fr1_xyz_groundtruth.txt"),
      toPath: folder.file("track.txt"))
    return folder.write(
      """
      {"name":"t","track":{"path":"track.txt"},"output":{"width":64,"height":48},
       "duration":0.1\(background.map { #","background":"# + $0 } ?? "")}
      """, to: "scene.json")
  }

  @Test("arsim video on frames of different sizes exits 65 naming the frame's file")
  func framesOfDifferentSizes() throws {
    defer { folder.remove() }
    let out = folder.file("out")
    // Frames 1 and 2 only: the second frame of the video is frame_00002.png.
    let (rendered, log) = runCommand(["render", try scene(), "--out", out, "--frames", "1..2"])
    try #require(rendered == 0, "\(log.standardError)")
    try Image(width: 32, height: 24).writePNG(to: out + "/frame_00002.png")
    let (status, output) = runCommand(["video", out, folder.file("v.mp4")])
    #expect(status == 65, "\(output.standardError)")
    #expect(
      output.standardError.contains(
        "/out/frame_00002.png: is 32×24, the video's first frame (frame_00001.png) is 64×48"),
      "\(output.standardError)")
    #expect(!FileManager.default.fileExists(atPath: folder.file("v.mp4")))
  }

  /// A newcomer's finding: each of these exited 65/66 but left `v.mp4.arsim-tmp-PID` behind.
  @Test(
    "arsim video with a bad second frame leaves no temporary file",
    arguments: [("size", 65), ("garbage", 65), ("fifo", 66)])
  func badFrameLeavesNoTemporary(kind: String, code: Int32) throws {
    defer { folder.remove() }
    let out = folder.file("out")
    let (rendered, log) = runCommand(["render", try scene(), "--out", out, "--frames", "1..2"])
    try #require(rendered == 0, "\(log.standardError)")
    let frame = out + "/frame_00002.png"
    try FileManager.default.removeItem(atPath: frame)
    switch kind {
    case "size": try Image(width: 32, height: 24).writePNG(to: frame)
    case "garbage": folder.write("not a PNG\n", to: "out/frame_00002.png")
    default: try #require(mkfifo(frame, 0o600) == 0)
    }
    // In a process of its own: ffmpeg, left running, wrote the temporary after arsim exited.
    let (status, standardError) = try BuiltArsim.run(
      BuiltArsim.path, ["video", out, folder.file("v.mp4")])
    #expect(status == code, "\(standardError)")
    #expect(standardError.contains("frame_00002.png"), "\(standardError)")
    var left: [String] = []
    for _ in 0..<20 where left.isEmpty {
      usleep(100_000)
      left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        .filter { $0.hasPrefix("v.mp4") }
    }
    #expect(left.isEmpty, "\(left)")
  }

  @Test(
    "recording.video that is empty or garbage exits 65 naming the file with ffprobe's words",
    arguments: [[UInt8](), Array("this is not a video\n".utf8)])
  func unreadableVideo(bytes: [UInt8]) throws {
    defer { folder.remove() }
    folder.write(bytes, to: "v.mp4")
    let path = try scene(#"{"recording":{"video":"v.mp4"}}"#)
    let (status, output) = runCommand(["render", path, "--out", folder.file("out")])
    #expect(status == 65, "\(output.standardError)")
    #expect(output.standardError.contains("v.mp4: ffprobe cannot read the video: '"))
    // ffprobe's reason, without the path it starts its line with (the excerpt would end first).
    #expect(
      output.standardError.contains("'Invalid data found when processing input'"),
      "\(output.standardError)")
  }
}
