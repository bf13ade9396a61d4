import ARChildProcess
import ARRender
import ARReplay
import ARSession
import ARSupport
import ARTestSupport
import Foundation
import Testing

@testable import ARCameraImages

/// Videos through ffmpeg and ffprobe (Debian `ffmpeg`, installed for rendering).
@Suite struct VideoFrameSourceTests {
  static let environment = ProcessInfo.processInfo.environment

  @Test("ffprobe's reason loses the path and a '[demuxer @ 0x…]' context, nothing else")
  func ffprobeReason() {
    let path = "/tmp/v.mp4"
    for (line, reason) in [
      (
        "/tmp/v.mp4: Invalid data found when processing input",
        "Invalid data found when processing input"
      ),
      ("[mov,mp4,m4a,3gp,3g2,mj2 @ 0x55d1c3a0b2c0] moov atom not found", "moov atom not found"),
      ("[mov,mp4 @ 0x1]  two spaces", "two spaces"),
      ("[not a context] kept", "[not a context] kept"),
      ("[unclosed @ 0x12", "[unclosed @ 0x12"),
      ("other.mp4: kept", "other.mp4: kept"),
    ] {
      #expect(VideoFrameSource.ffprobeReason(line, path: path) == reason[...], "\(line)")
    }
  }

  /// Three 32×24 frames, red, green, blue, at 10 frames/s, lossless (FFV1 in Matroska).
  func makeVideo(in folder: TemporaryFolder) throws -> String {
    for (i, color) in [(200, 0, 0), (0, 200, 0), (0, 0, 200)].enumerated() {
      try Image(width: 32, height: 24, fill: (UInt8(color.0), UInt8(color.1), UInt8(color.2), 255))
        .writePNG(to: folder.path + "/f\(i).png")
    }
    let ffmpeg = try #require(ExecutableLocator.find("ffmpeg", environment: Self.environment))
    let video = folder.path + "/clip.mkv"
    let (termination, _, lines) = try ChildProcess.run(
      ffmpeg,
      [
        "-v", "error", "-framerate", "10", "-i", folder.path + "/f%d.png", "-c:v", "ffv1",
        "-pix_fmt", "bgr0", video,
      ])
    #expect(termination.succeeded, "\(lines)")
    return video
  }

  @Test("frames decoded in order with their presentation times from 0; skipped ones dropped")
  func decode() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let source = try VideoFrameSource.open(try makeVideo(in: folder))
    #expect(source.times.count == 3)
    #expect(zip(source.times, [0, 0.1, 0.2]).allSatisfy { abs($0 - $1) < 1e-3 })
    #expect(Array(try source.image(at: 0).pixels.prefix(4)) == [200, 0, 0, 255])
    // Frame 1 is read and dropped.
    #expect(Array(try source.image(at: 2).pixels.prefix(4)) == [0, 0, 200, 255])
    try source.finish()
  }

  @Test("packets flagged D (before an edit list's start) or without a time are no frames")
  func presentationTimes() {
    let packets = """
      pts_time=-0.066667|flags=KD
      pts_time=0.033333|flags=___
      pts_time=-0.033333|flags=_D
      pts_time=0.000000|flags=K__
      pts_time=N/A|flags=___

      """
    #expect(VideoFrameSource.presentationTimes(packets) == [0, 0.033333])
  }

  @Test("a trimmed MP4 (an edit list after a keyframe): a time per frame ffmpeg delivers")
  func trimmedMP4() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let ffmpeg = try #require(ExecutableLocator.find("ffmpeg", environment: Self.environment))
    // `-ss 1 -c copy` keeps the second before from the keyframe at 0 as 30 packets at negative
    // times, flagged discard, which ffmpeg decodes and does not output.
    for arguments in [
      ["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=30", "-t", "4", "-g", "60"]
        + ["-pix_fmt", "yuv420p", folder.path + "/gop.mp4"],
      ["-ss", "1.0", "-i", folder.path + "/gop.mp4", "-c", "copy", folder.path + "/cut.mp4"],
    ] {
      let (termination, _, lines) = try ChildProcess.run(
        ffmpeg, ["-v", "error", "-nostdin"] + arguments)
      try #require(termination.succeeded, "\(lines)")
    }
    let source = try VideoFrameSource.open(folder.path + "/cut.mp4")
    #expect(source.times.count == 90)
    #expect(source.times.first == 0)
    #expect(abs((source.times.last ?? 0) - 89.0 / 30) < 1e-3)
    _ = try source.image(at: 89)
    try source.finish()
  }

  @Test("a file ffprobe opens but that is no MP4, MOV or MKV video is bad data (65)")
  func notAVideo() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    // ffprobe reads text as its `tty` format and a PNG as an image: neither is a recording.
    let text = folder.write(String(repeating: "a line of text\n", count: 40), to: "notes.txt")
    try Image(width: 4, height: 4, fill: (1, 2, 3, 255)).writePNG(to: folder.path + "/still.mkv")
    for (path, format) in [(text, "tty"), (folder.path + "/still.mkv", "png_pipe")] {
      #expect {
        try VideoFrameSource.open(path)
      } throws: { error in
        guard let error = error as? InputError else { return false }
        return error.kind == .badData && error.location.file == path
          && error.reason == "not an MP4, MOV or MKV video (ffprobe reads it as '\(format)')"
      }
    }
    // The MKV the other tests use passes.
    let source = try VideoFrameSource.open(try makeVideo(in: folder))
    try source.finish()
  }

  @Test("without ffprobe or ffmpeg: toolNotFound naming the Debian package (exit 69)")
  func missingTool() {
    #expect {
      try VideoFrameSource.open("/nonexistent.mp4", environment: ["PATH": "/nonexistent"])
    } throws: { error in
      guard case .toolNotFound("ffprobe")? = error as? CameraVideoError else { return false }
      return "\(error)".contains("install the Debian package 'ffmpeg'")
    }
  }

  @Test("ffmpeg failing mid-way: the frames before are delivered, then its last lines")
  func failsMidway() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let video = try makeVideo(in: folder)
    // A stand-in ffmpeg: one frame of zero bytes, a complaint, exit 1.
    let script = folder.write(
      "#!/bin/sh\nhead -c \(32 * 24 * 4) /dev/zero\necho 'clip.mkv: decoding failed at frame 1' >&2\nexit 1\n",
      to: "ffmpeg")
    chmod(script, 0o755)
    var environment = Self.environment
    environment["ARSIM_FFMPEG"] = script
    let source = try VideoFrameSource.open(video, environment: environment)
    #expect(Array(try source.image(at: 0).pixels.prefix(4)) == [0, 0, 0, 0])
    #expect {
      try source.image(at: 1)
    } throws: { error in
      guard case .failed(_, let reason, let lines)? = error as? CameraVideoError else {
        return false
      }
      return reason.contains("frame 1 of 3") && reason.contains("exit 1")
        && lines == ["clip.mkv: decoding failed at frame 1"]
    }
  }

  @Test("a scene over a video: each frame shows the latest video frame at or before it")
  func scene() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    _ = try makeVideo(in: folder)
    _ = folder.write(
      #"{"format": "arsim-track", "version": 1, "poses": [{"t": 0, "worldFromCamera": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]}, {"t": 1, "worldFromCamera": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]}]}"#,
      to: "track.json")
    let path = folder.write(
      """
      {"name": "video", "track": {"path": "track.json"}, "output": {"fps": 20}, "frames": 6,
       "background": {"recording": {"video": "clip.mkv",
         "lens": {"fx": 32, "fy": 32, "cx": 15.5, "cy": 11.5, "width": 32, "height": 24}}}}
      """, to: "scene.json")
    let out = folder.path + "/out"
    _ = try Replay(scene: ReplayScene.load(path: path, registry: SessionRegistry())).run(
      ReplayOptions(outputDirectory: out))
    // τ = 0, 0.05 → frame 0 (red); 0.1, 0.15 → green; 0.2, 0.25 → blue.
    let reds = try (0..<6).map {
      try Image(contentsOfPNG: out + String(format: "/frame_%05d.png", $0)).pixels[0...2]
    }
    #expect(
      reds.map(Array.init) == [
        [200, 0, 0], [200, 0, 0], [0, 200, 0], [0, 200, 0], [0, 0, 200], [0, 0, 200],
      ])
  }
}
