import ARChildProcess
import ARRender
import ARTestSupport
import Foundation
import Testing

/// A `background.recording.video` is probed when the scene loads: a video ffmpeg cannot
/// deliver is refused before the output folder is touched, and its errors name the scene's
/// line and field (Documentation/CameraImages.md, "Bad input during the run").
@Suite struct RecordedVideoProbeTests {
  let folder = TemporaryFolder("video-probe")

  /// Runs the real ffmpeg with `arguments` (output in `folder`).
  func ffmpeg(_ arguments: [String]) throws {
    let (termination, _, lines) = try ChildProcess.run(
      try MediaTestSupport.tool("ffmpeg"), ["-v", "error", "-y", "-nostdin"] + arguments)
    try #require(termination.succeeded, "\(lines)")
  }

  /// `name.json` over the bundled TUM track at 64×48, `video` (when given) on line 5.
  func scene(_ name: String, video: String?, duration: Double = 0.2) throws -> String {
    if !FileManager.default.fileExists(atPath: folder.file("track.txt")) {
      try FileManager.default.copyItem(
        atPath: Fixtures.repositoryPath("Scenes/Inputs/tum_fr1_xyz_groundtruth.txt"),
        toPath: folder.file("track.txt"))
    }
    let background = video.map {
      #","background": {"recording": {"# + "\n" + #""video": "\#($0)"}}"#
    }
    return folder.write(
      """
      {"name": "\(name)", "track": {"path": "track.txt", "format": "tum"},
       "output": {"width": 64, "height": 48, "fps": 10},
       "duration": \(duration)
       \(background ?? "")}
      """, to: name + ".json")
  }

  /// The bad videos of the finding: text, audio only, a PNG, a frame over the image limits.
  static let badVideos: [(name: String, said: String)] = [
    ("text.mp4", "ffprobe cannot read the video: 'moov atom not found'"),
    ("audio.mp4", "ffprobe found no video stream"),
    ("still.mp4", "not an MP4, MOV or MKV video (ffprobe reads it as 'png_pipe')"),
    ("wide.mkv", "16400×2 pixels is over the limit"),
  ]

  /// Writes `name` (one of `badVideos`) into the folder.
  func makeBadVideo(_ name: String) throws {
    switch name {
    case "text.mp4": folder.write("not a video\n", to: name)
    case "audio.mp4": try ffmpeg(["-f", "lavfi", "-i", "sine=d=0.2", folder.file(name)])
    case "still.mp4": try Image(width: 4, height: 4).writePNG(to: folder.file(name))
    default:
      try ffmpeg([
        "-f", "lavfi", "-i", "color=s=16400x2:d=0.1:r=10", "-c:v", "ffv1", folder.file(name),
      ])
    }
  }

  @Test("a refused video leaves the previous run's run.json, events and trace as they were")
  func refusedVideoKeepsPreviousRun() throws {
    defer { folder.remove() }
    let out = folder.file("out")
    let (rendered, log) = runCommand(["render", try scene("good", video: nil), "--out", out])
    try #require(rendered == 0, "\(log.standardError)")
    let kept = ["run.json", "events.jsonl", "trace.jsonl"]
    let before = try kept.map { try Data(contentsOf: URL(fileURLWithPath: out + "/" + $0)) }
    #expect(before[2].count > 0)
    for (video, said) in Self.badVideos {
      try makeBadVideo(video)
      let (status, output) = runCommand(
        ["render", try scene("bad", video: video), "--out", out])
      #expect(status == 65, "\(video): \(output.standardError)")
      #expect(output.standardError.contains(said), "\(video): \(output.standardError)")
      let after = kept.map { try? Data(contentsOf: URL(fileURLWithPath: out + "/" + $0)) }
      #expect(after == before, "\(video): the previous run's files changed")
    }
  }

  @Test("a missing or unreadable video names the scene file, line and field that named it")
  func videoErrorsNameTheScene() throws {
    defer { folder.remove() }
    folder.write("not a video\n", to: "text.mp4")
    for (video, code) in [("nope.mp4", Int32(66)), ("text.mp4", 65)] {
      let scene = try scene("named", video: video)
      let (status, output) = runCommand(["render", scene, "--out", folder.file("out")])
      #expect(status == code, "\(output.standardError)")
      #expect(
        output.standardError.contains("(named by \(scene):5: field 'background.recording.video')"),
        "\(output.standardError)")
    }
    #expect(!FileManager.default.fileExists(atPath: folder.file("out")))
  }
}
