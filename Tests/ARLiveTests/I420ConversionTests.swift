import ARRender

@testable import ARLive
import ARTestSupport
import Foundation
import Testing

@Suite struct I420ConversionTests {
  /// Y, Cb, Cr of one flat colour, from the BT.601 full-range formulas by hand.
  @Test(
    "flat colours convert to the hand-computed BT.601 full-range values",
    arguments: [
      ((255, 255, 255), (255, 128, 128)),
      ((0, 0, 0), (0, 128, 128)),
      // Y = 0.299 · 255 = 76.2; Cb = 128 − 0.168736 · 255 = 84.97; Cr = 128 + 127.5 → clamped.
      ((255, 0, 0), (76, 85, 255)),
      // Y = 0.587 · 255 = 149.7; Cb = 128 − 84.47 = 43.53; Cr = 128 − 106.77 = 21.23.
      ((0, 255, 0), (150, 44, 21)),
      // Y = 29.07; Cb = 255.5 → 255; Cr = 128 − 20.73 = 107.27.
      ((0, 0, 255), (29, 255, 107)),
      ((128, 128, 128), (128, 128, 128)),
    ])
  func flat(rgb: (Int, Int, Int), ycbcr: (Int, Int, Int)) {
    let image = Image(width: 2, height: 2, fill: (UInt8(rgb.0), UInt8(rgb.1), UInt8(rgb.2), 255))
    let planes = I420Conversion.i420(rgba: image.pixels, width: 2, height: 2)
    #expect(
      planes == [UInt8](repeating: UInt8(ycbcr.0), count: 4) + [UInt8(ycbcr.1), UInt8(ycbcr.2)])
  }

  @Test("odd sizes: the last chroma column and row average the pixels they have")
  func oddSize() {
    // 3 × 1: pixels white, black, red. Chroma (0, 0) averages white and black (grey 127.5 →
    // Cb = Cr = 128); chroma (1, 0) is red alone.
    var image = Image(width: 3, height: 1)
    image[0, 0] = (255, 255, 255, 255)
    image[1, 0] = (0, 0, 0, 255)
    image[2, 0] = (255, 0, 0, 255)
    let planes = I420Conversion.i420(rgba: image.pixels, width: 3, height: 1)
    #expect(planes == [255, 0, 76, 128, 85, 128, 255])
  }

  @Test(
    "the even-size fast path gives the general path's bytes",
    arguments: [(2, 2), (6, 4), (160, 90)])
  func fastPath(width: Int, height: Int) {
    var random = SystemRandomNumberGenerator()
    let rgba = (0..<(width * height * 4)).map { _ in UInt8.random(in: 0...255, using: &random) }
    let fast = I420Conversion.i420(rgba: rgba, width: width, height: height)
    var general = [UInt8](repeating: 0, count: fast.count)
    rgba.withUnsafeBufferPointer { source in
      general.withUnsafeMutableBufferPointer {
        I420Conversion.convertAnySize(rgba: source, width: width, height: height, into: $0)
      }
    }
    #expect(fast == general)
  }

  @Test("I420 decodes back within 2 levels on flat colours and BGRA exactly")
  func roundTrip() throws {
    for colour in [(200, 30, 90), (12, 250, 128), (0, 122, 255)] {
      let image = Image(
        width: 5, height: 3, fill: (UInt8(colour.0), UInt8(colour.1), UInt8(colour.2), 255))
      for format in PixelFormat.allCases {
        let wire = WireFrame.encode(image, format: format, sequence: 0, presentationMicroseconds: 0)
        let (header, _) = try FrameHeader.parse(Array(wire.prefix(40)))
        let back = WireFrame.image(header: header, payload: Array(wire.dropFirst(40)))
        let worst = zip(back.pixels, image.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= (format == .bgra ? 0 : 2), "\(format) \(colour): \(worst)")
      }
    }
  }

  /// ffmpeg (swscale) as an independent converter: the luma plane of a gradient must agree
  /// within one level, and the chroma of flat colours (where siting does not matter) too.
  @Test("luma and flat chroma agree with ffmpeg's BT.601 full-range conversion")
  func againstFFmpeg() throws {
    let folder = TemporaryFolder("live-ffmpeg").path
    var image = Image(width: 16, height: 8)
    for v in 0..<8 {
      for u in 0..<16 {
        image[u, v] = (
          UInt8(u * 16), UInt8(v * 32), UInt8(255 - u * 8), 255
        )
      }
    }
    for u in 0..<4 {
      for v in 0..<2 { image[u, v] = (200, 40, 90, 255) }  // a flat 4×2 corner
    }
    try image.writePNG(to: folder + "/in.png")
    let ffmpeg = try Child(
      "/usr/bin/ffmpeg",
      [
        "-v", "error", "-y", "-i", folder + "/in.png", "-vf",
        "scale=out_color_matrix=bt601:out_range=full:flags=area+accurate_rnd+full_chroma_int",
        "-pix_fmt", "yuv420p", "-f", "rawvideo", folder + "/out.yuv",
      ])
    #expect(ffmpeg.wait(seconds: 20) == 0)
    let theirs = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/out.yuv")))
    let ours = I420Conversion.i420(rgba: image.pixels, width: 16, height: 8)
    try #require(theirs.count == ours.count)
    let lumaWorst = (0..<128).map { abs(Int(theirs[$0]) - Int(ours[$0])) }.max() ?? 0
    #expect(lumaWorst <= 1)
    // Chroma samples (0, 0) and (1, 0) cover the flat corner, away from its edge at u = 4.
    for index in [128, 128 + 32] {
      #expect(abs(Int(theirs[index]) - Int(ours[index])) <= 1, "chroma byte \(index)")
    }
  }
}
