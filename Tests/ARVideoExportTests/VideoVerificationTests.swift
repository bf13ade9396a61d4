import ARChildProcess
import ARTestSupport
import ARVideoExport
import Foundation
import Testing

/// ffmpeg exiting 0 is not taken as success: a file that is not a whole MP4, or an error line
/// on its standard error, fails the encode (73 at the command line) and leaves no video.
@Suite struct VideoVerificationTests {
  /// An executable shell script `name` in `folder` with `body` after the `#!` line.
  static func script(_ body: String, named name: String, in folder: String) throws -> String {
    let path = folder + "/" + name
    try ("#!/bin/sh\n" + body).write(toFile: path, atomically: true, encoding: .utf8)
    chmod(path, 0o755)
    return path
  }

  /// Encodes three 64×48 frames with `ffmpeg` as ARSIM_FFMPEG into `folder/run.mp4`.
  static func encode(with ffmpeg: String, in folder: String) throws {
    var environment = MediaTestSupport.environment
    environment["ARSIM_FFMPEG"] = ffmpeg
    let encoder = try VideoEncoder(
      outputPath: folder + "/run.mp4",
      settings: VideoEncoderSettings(frameRate: try #require(VideoFrameRate(framesPerSecond: 30))),
      environment: environment)
    for i in 0..<3 { try encoder.append(VideoEncoderTests.frame(i, width: 64, height: 48)) }
    try encoder.finish()
  }

  @Test("an ffmpeg that writes 8 bytes and exits 0 fails the encode; no video is left")
  func eightBytes() throws {
    let temporary = TemporaryFolder("video-8-bytes")
    defer { temporary.remove() }
    let folder = temporary.path
    // The output is the last argument; standard input is read to its end.
    let fake = try Self.script(
      "for last; do :; done\ncat > /dev/null\nprintf 'ftypmp4x' > \"$last\"\nexit 0\n",
      named: "ffmpeg", in: folder)
    #expect {
      try Self.encode(with: fake, in: folder)
    } throws: { error in
      let text = "\(error)"
      return text.contains("exit status 0, but") && text.contains("box")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["ffmpeg"])
  }

  @Test("an ffmpeg that says 'Error writing trailer' and exits 0 fails with its words")
  func errorWritingTrailer() throws {
    let temporary = TemporaryFolder("video-trailer")
    defer { temporary.remove() }
    let folder = temporary.path
    let real = try #require(
      ExecutableLocator.find("ffmpeg", environment: MediaTestSupport.environment))
    // The real ffmpeg writes a whole video; only its error line is added.
    let fake = try Self.script(
      "'\(real)' \"$@\" || exit $?\n"
        + "echo 'Error writing trailer of run.mp4: No space left on device' >&2\nexit 0\n",
      named: "ffmpeg", in: folder)
    #expect {
      try Self.encode(with: fake, in: folder)
    } throws: { error in
      let text = "\(error)"
      return text.contains("ffmpeg reported an error")
        && text.contains("Error writing trailer of run.mp4: No space left on device")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["ffmpeg"])
  }

  @Test("ARSIM_FFMPEG naming a folder is 'not found' (69), as a missing path is")
  func folderAsFFmpeg() throws {
    #expect {
      _ = try VideoEncoder(
        outputPath: "/tmp/arsim-never.mp4",
        settings: VideoEncoderSettings(
          frameRate: try #require(VideoFrameRate(framesPerSecond: 30))),
        environment: ["ARSIM_FFMPEG": "/tmp"])
    } throws: { error in
      guard case .ffmpegNotFound = error as? VideoEncoderError else { return false }
      return "\(error)".contains("ARSIM_FFMPEG=/tmp is not an executable")
    }
  }
}
