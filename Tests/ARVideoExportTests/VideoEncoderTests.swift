import ARRender
import ARTestSupport
import ARVideoExport
import Foundation
import Testing

/// The MP4s are checked by tools ARSim did not write: ffprobe for the stream's properties,
/// ffmpeg for the decoded pixels, and the file's box order read from its headers.
@Suite struct VideoEncoderTests {
  /// A test frame: a smooth diagonal gradient (most of a render) and a saturated square that
  /// moves two pixels per frame. Its edges stay on even pixels, i.e. on 2×2 chroma block
  /// borders: a sharp colour edge inside a block loses up to ~80 levels on its edge pixels in
  /// any 4:2:0 video, which would swamp what the test measures (the codec and the matrix).
  static func frame(_ index: Int, width: Int, height: Int) -> Image {
    var image = Image(width: width, height: height)
    for v in 0..<height {
      for u in 0..<width {
        let r = UInt8((u * 255) / max(1, width - 1))
        let g = UInt8((v * 255) / max(1, height - 1))
        image[u, v] = (r, g, 160, 255)
      }
    }
    for v in 20..<50 where v < height {
      for u in (10 + 2 * index)..<(40 + 2 * index) where u < width {
        image[u, v] = (230, 30, 40, 255)
      }
    }
    return image
  }

  static func encode(
    frames: Int, width: Int, height: Int, rate: VideoFrameRate, to path: String,
    extra: [String] = []
  ) throws {
    var settings = VideoEncoderSettings(frameRate: rate)
    settings.extraOutputArguments = extra
    settings.preset = "veryfast"
    let encoder = try VideoEncoder(
      outputPath: path, settings: settings, environment: MediaTestSupport.environment)
    for i in 0..<frames { try encoder.append(frame(i, width: width, height: height)) }
    try encoder.finish()
  }

  @Test("an odd-sized run becomes an H.264 yuv420p MP4 with the stated tags, size and rate")
  func streamProperties() throws {
    let folder = TemporaryFolder("video").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/run.mp4"
    try Self.encode(
      frames: 24, width: 161, height: 121,
      rate: try #require(VideoFrameRate(framesPerSecond: 30000.0 / 1001)), to: path)
    let stream = try MediaTestSupport.probe(path)
    #expect(stream["codec_name"] as? String == "h264")
    #expect(stream["pix_fmt"] as? String == "yuv420p")
    #expect(stream["width"] as? Int == 162)  // 161 padded to even
    #expect(stream["height"] as? Int == 122)
    #expect(stream["r_frame_rate"] as? String == "30000/1001")
    #expect(stream["nb_read_frames"] as? String == "24")
    #expect(stream["color_range"] as? String == "tv")
    #expect(stream["color_space"] as? String == "bt709")
    #expect(stream["color_primaries"] as? String == "bt709")
    #expect(stream["color_transfer"] as? String == "bt709")
    #expect(stream["chroma_location"] as? String == "center")
    // +faststart: the index (moov) precedes the media data (mdat).
    let boxes = try MediaTestSupport.topLevelBoxes(path)
    let moov = try #require(boxes.firstIndex(of: "moov"))
    let mdat = try #require(boxes.firstIndex(of: "mdat"))
    #expect(moov < mdat, "boxes: \(boxes)")
    // Nothing else is left beside the video.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["run.mp4"])
  }

  /// Tolerance: x264 at CRF 18 on top of limited-range quantisation (±0.6 level): mean
  /// absolute error ≤ 1.5 levels (of 255, over R, G, B) and PSNR ≥ 40 dB, where "visually
  /// lossless" starts (measured: MAE 1.21, 43.2 dB). Decoding the same file with the BT.601
  /// matrix (a tag mismatch) measures MAE 7.6 and 28 dB, so the bound sees the matrix.
  @Test("a decoded frame matches the frame that went in (BT.709 decode), and not with BT.601")
  func decodedFrameMatches() throws {
    let folder = TemporaryFolder("video").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/run.mp4"
    try Self.encode(
      frames: 12, width: 128, height: 96,
      rate: try #require(VideoFrameRate(framesPerSecond: 30)), to: path)
    let source = Self.frame(7, width: 128, height: 96)
    let decoded = try MediaTestSupport.decodeFrame(path, index: 7, width: 128, height: 96)
    let measured = MediaTestSupport.error(source, decoded)
    print(
      "video: frame 7 of 128×96 at CRF 18: MAE \(measured.meanAbsolute), PSNR \(measured.psnr) dB")
    #expect(measured.meanAbsolute <= 1.5, "MAE \(measured.meanAbsolute)")
    #expect(measured.psnr >= 40, "PSNR \(measured.psnr) dB")
    let wrong = try MediaTestSupport.decodeFrame(
      path, index: 7, width: 128, height: 96, matrix: "bt601")
    let mismatched = MediaTestSupport.error(source, wrong)
    #expect(mismatched.meanAbsolute > 1.5 && mismatched.psnr < 40, "601: \(mismatched)")
    // Another frame index is a different picture (the square moved): frames are not mixed up.
    let other = MediaTestSupport.error(Self.frame(0, width: 128, height: 96), decoded)
    #expect(other.meanAbsolute > measured.meanAbsolute)
  }

  @Test("a missing ffmpeg is a clear error naming the Debian package")
  func missingFFmpeg() throws {
    for environment in [["ARSIM_FFMPEG": "/nonexistent/ffmpeg"], ["PATH": "/nonexistent"]] {
      #expect {
        _ = try VideoEncoder(
          outputPath: "/tmp/never.mp4",
          settings: VideoEncoderSettings(
            frameRate: try #require(VideoFrameRate(framesPerSecond: 30))),
          environment: environment)
      } throws: { error in
        let text = "\(error)"
        return text.contains("ffmpeg not found") && text.contains("Debian package 'ffmpeg'")
      }
    }
  }

  @Test("ffmpeg failing gives its last lines and leaves no video behind")
  func ffmpegFails() throws {
    let folder = TemporaryFolder("video").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/run.mp4"
    #expect {
      try Self.encode(
        frames: 5, width: 64, height: 48,
        rate: try #require(VideoFrameRate(framesPerSecond: 30)), to: path,
        extra: ["-c:v", "no_such_encoder"])
    } throws: { error in
      let text = "\(error)"
      return text.contains("ffmpeg failed") && text.contains("no_such_encoder")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
  }

  @Test(
    "frame rates become ffmpeg's fractions",
    arguments: [
      (30.0, "30/1"), (60.0, "60/1"), (30000.0 / 1001, "30000/1001"), (12.5, "25/2"),
      (23.976, "2997/125"),
    ])
  func rates(fps: Double, expected: String) throws {
    #expect(try #require(VideoFrameRate(framesPerSecond: fps)).description == expected)
  }
}
