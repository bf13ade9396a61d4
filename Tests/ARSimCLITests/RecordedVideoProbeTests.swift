import ARChildProcess
import ARRender
import ARTestSupport
import Foundation
import Testing

/// A `background.recording.video` is probed when the scene loads: a video ffmpeg cannot
/// deliver is refused before the output folder is touched, its errors name the scene's line
/// and field, and a failing ffprobe is the tool's failure, not the video's
/// (Documentation/CameraImages.md, "Bad input during the run").
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

  /// A 0.3 s 32×24 FFV1 video at 10 frames/s, `clip.mkv`.
  func makeVideo() throws {
    try ffmpeg([
      "-f", "lavfi", "-i", "testsrc2=s=32x24:d=0.3:r=10", "-c:v", "ffv1", folder.file("clip.mkv"),
    ])
  }

  /// `arsim` as a child process with `ARSIM_FFPROBE` set to `ffprobe`.
  func render(_ scene: String, ffprobe: String) throws -> (code: Int32?, errors: String) {
    var environment = ProcessInfo.processInfo.environment
    environment["ARSIM_FFPROBE"] = ffprobe
    let (termination, _, lines) = try ChildProcess.run(
      BuiltArsim.path, ["render", scene, "--out", folder.file("out")], timeoutSeconds: 120,
      environment: environment)
    return (termination.exitStatus, lines.joined(separator: "\n"))
  }

  @Test("ffprobe failing without a word, or killed, is the tool's failure (69), not the video's")
  func failingFFprobe() throws {
    defer { folder.remove() }
    try makeVideo()
    let scene = try scene("tool", video: "clip.mkv")
    var (code, errors) = try render(scene, ffprobe: "/bin/false")
    #expect(code == 69, "\(errors)")
    #expect(
      errors.contains("ffprobe (/bin/false) failed on \(folder.file("clip.mkv"))"), "\(errors)")
    #expect(errors.contains("exited with status 1 without saying why"), "\(errors)")
    #expect(errors.contains("the tool failed, not the video"), "\(errors)")
    let killed = folder.write("#!/bin/sh\nkill -9 $$\n", to: "bin/killed")
    chmod(killed, 0o755)
    (code, errors) = try render(scene, ffprobe: killed)
    #expect(code == 69, "\(errors)")
    #expect(errors.contains("it was killed by signal 9"), "\(errors)")
    // An ffprobe that says why the file is bad: the video is bad input (65).
    let says = folder.write(
      "#!/bin/sh\necho 'clip.mkv: Invalid data found when processing input' >&2\nexit 1\n",
      to: "bin/says")
    chmod(says, 0o755)
    (code, errors) = try render(scene, ffprobe: says)
    #expect(code == 65, "\(errors)")
    #expect(errors.contains("ffprobe cannot read the video: 'clip.mkv: Invalid data"), "\(errors)")
    #expect(!FileManager.default.fileExists(atPath: folder.file("out")))
  }

  @Test("a trimmed MP4 with an edit list renders to its end: pre-roll packets are no frames")
  func trimmedMP4() throws {
    defer { folder.remove() }
    try ffmpeg([
      "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=30", "-t", "4", "-g", "60", "-pix_fmt",
      "yuv420p", folder.file("gop.mp4"),
    ])
    try ffmpeg(["-ss", "1.0", "-i", folder.file("gop.mp4"), "-c", "copy", folder.file("cut.mp4")])
    let (status, output) = runCommand(
      ["render", try scene("vcut", video: "cut.mp4", duration: 3.9), "--out", folder.file("out")])
    #expect(status == 0, "\(output.standardError)")
    #expect(FileManager.default.fileExists(atPath: folder.file("out/frame_00038.png")))
  }
}
