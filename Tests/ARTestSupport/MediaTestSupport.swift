import ARChildProcess
import ARRender
import Foundation
import Testing

/// What the video export and command-line tests check videos with: the real ffprobe and
/// ffmpeg run as child processes, and error measures between images.
public enum MediaTestSupport {
  /// This process's environment: where `tool` looks (PATH), and what tests hand the encoder.
  public static var environment: [String: String] { ProcessInfo.processInfo.environment }

  /// The path of a tool on PATH, or a test failure.
  public static func tool(_ name: String) throws -> String {
    try #require(
      ExecutableLocator.find(name, environment: environment),
      "\(name) is needed (Debian package ffmpeg; Scripts/install-dependencies)")
  }

  /// ffprobe's JSON for the first video stream: the fields the tests check, frames counted
  /// by decoding (`-count_frames`).
  public static func probe(_ video: String) throws -> [String: Any] {
    let (termination, output, errors) = try ChildProcess.run(
      try tool("ffprobe"),
      [
        "-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
        "stream=codec_name,width,height,r_frame_rate,avg_frame_rate,nb_read_frames,pix_fmt,"
          + "color_range,color_space,color_primaries,color_transfer,chroma_location",
        "-of", "json", video,
      ])
    #expect(termination.succeeded, "ffprobe: \(errors)")
    let json = try JSONSerialization.jsonObject(with: Data(output)) as? [String: Any]
    let streams = try #require(json?["streams"] as? [[String: Any]])
    return try #require(streams.first)
  }

  /// Frame `index` of `video` decoded by ffmpeg to RGB with the given matrix and range (the
  /// tags are overridden so a test can also decode with the wrong ones), cropped to
  /// `width`×`height`. Chroma is upsampled nearest-neighbour: each 2×2 block gets its own
  /// chroma, the inverse of the encoder's block mean, so a player's bilinear smear across
  /// colour edges (present in any 4:2:0 video) is not counted as the encoder's error.
  public static func decodeFrame(
    _ video: String, index: Int, width: Int, height: Int, matrix: String = "bt709"
  ) throws -> Image {
    let filter =
      "select=eq(n\\,\(index)),scale=in_color_matrix=\(matrix):in_range=tv:"
      + "flags=neighbor+accurate_rnd+full_chroma_int+bitexact,crop=\(width):\(height):0:0,format=rgb24"
    let (termination, output, errors) = try ChildProcess.run(
      try tool("ffmpeg"),
      [
        "-hide_banner", "-nostdin", "-loglevel", "error", "-i", video, "-vf", filter,
        "-frames:v", "1", "-f", "rawvideo", "pipe:1",
      ])
    #expect(termination.succeeded, "ffmpeg decode: \(errors)")
    try #require(output.count == width * height * 3, "decoded \(output.count) bytes")
    var rgba = [UInt8](repeating: 255, count: width * height * 4)
    for i in 0..<(width * height) {
      rgba[i * 4] = output[i * 3]
      rgba[i * 4 + 1] = output[i * 3 + 1]
      rgba[i * 4 + 2] = output[i * 3 + 2]
    }
    return try #require(Image(width: width, height: height, pixels: rgba))
  }

  /// The Y′ plane (limited-range code values as stored, no conversion) of frame `index`.
  public static func decodeLuma(
    _ video: String, index: Int, width: Int, height: Int
  ) throws -> [UInt8] {
    let (termination, output, errors) = try ChildProcess.run(
      try tool("ffmpeg"),
      [
        "-hide_banner", "-nostdin", "-loglevel", "error", "-i", video, "-vf",
        "select=eq(n\\,\(index))", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "yuv420p",
        "pipe:1",
      ])
    #expect(termination.succeeded, "ffmpeg decode: \(errors)")
    let paddedWidth = width + (width & 1)
    try #require(output.count >= paddedWidth * height, "decoded \(output.count) bytes")
    return (0..<height).flatMap { v in output[(v * paddedWidth)..<(v * paddedWidth + width)] }
  }

  /// PSNR (dB) between a decoded Y′ plane and the BT.709 limited-range luma of `image`
  /// computed here in Double: 16 + 219 · (0.2126 R + 0.7152 G + 0.0722 B) / 255.
  public static func lumaPSNR(_ image: Image, _ luma: [UInt8]) -> Double {
    var squared = 0.0
    for i in 0..<(image.width * image.height) {
      let r = Double(image.pixels[i * 4])
      let g = Double(image.pixels[i * 4 + 1])
      let b = Double(image.pixels[i * 4 + 2])
      let expected = 16 + 219 * (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255
      let d = expected - Double(luma[i])
      squared += d * d
    }
    let mse = squared / Double(image.width * image.height)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
  }

  /// Mean absolute error over R, G, B (levels 0…255) and PSNR (dB, peak 255).
  public static func error(_ a: Image, _ b: Image) -> (meanAbsolute: Double, psnr: Double) {
    precondition(a.width == b.width && a.height == b.height)
    var absolute = 0.0
    var squared = 0.0
    for i in stride(from: 0, to: a.pixels.count, by: 4) {
      for c in 0..<3 {
        let d = Double(a.pixels[i + c]) - Double(b.pixels[i + c])
        absolute += abs(d)
        squared += d * d
      }
    }
    let n = Double(a.width * a.height * 3)
    let mse = squared / n
    return (absolute / n, mse == 0 ? .infinity : 10 * log10(255 * 255 / mse))
  }

  /// The top-level MP4 box types in file order (`ftyp`, `moov`, `mdat`, …), read from the
  /// box headers (ISO/IEC 14496-12 §4.2: 32-bit size, 4-character type, 64-bit size if 1).
  public static func topLevelBoxes(_ path: String) throws -> [String] {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    var boxes: [String] = []
    var offset = 0
    while offset + 8 <= bytes.count, boxes.count < 100 {
      var size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
      if size == 1, offset + 16 <= bytes.count {
        size = bytes[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) }
      } else if size == 0 {
        size = bytes.count - offset
      }
      guard size >= 8 else { break }
      boxes.append(type)
      offset += size
    }
    return boxes
  }
}
