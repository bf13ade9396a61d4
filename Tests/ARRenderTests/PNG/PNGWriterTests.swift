import ARTestSupport
import CPNGWriter
import Foundation
import Testing

@testable import ARRender

/// ARSim's container (`CPNGWriter`, around ISA-L or the run-length encoder): ARSim writes the
/// PNG container itself, so these tests check it against libpng's decoder, `pngcheck` and values
/// from the PNG and CRC specifications.
@Suite("PNG writer (ARSim's container)")
struct PNGWriterTests {
  /// A smooth image with a few sharp edges (what deflate meets in rendered frames), plus the
  /// byte-wise noise of `PNGEncoderTests.pattern` in the bottom rows.
  static func frameLike(width: Int, height: Int, opaque: Bool) -> Image {
    var image = PNGEncoderTests.pattern(width: width, height: height, opaque: opaque)
    for y in 0..<(height * 3 / 4) {
      for x in 0..<width {
        let i = (y * width + x) * 4
        let disc = (x - width / 2) * (x - width / 2) + (y - height / 3) * (y - height / 3)
        image.pixels[i] = UInt8(truncatingIfNeeded: disc < width * width / 16 ? 200 : y)
        image.pixels[i + 1] = UInt8(truncatingIfNeeded: x / 3)
        image.pixels[i + 2] = UInt8(truncatingIfNeeded: (x + y) / 5)
      }
    }
    return image
  }

  static let filters: [PNGEncoder.Filter] = [.none, .sub, .up, .paeth, .adaptive]

  @Test(
    "every format, filter and level decodes to the input (libpng)",
    arguments: [PNGEncoder.PixelFormat.rgb8, .rgba8, .automatic], filters)
  func roundTrip(format: PNGEncoder.PixelFormat, filter: PNGEncoder.Filter) throws {
    // 700 × 200: rows of 2101 or 2801 bytes, so several 128 KiB strips; 1 × 1 and 13 × 3 for
    // the SIMD filters' tails.
    for (width, height) in [(700, 200), (1, 1), (13, 3)] {
      let image = Self.frameLike(width: width, height: height, opaque: format == .automatic)
      var expected = image
      if format == .rgb8 {
        for i in stride(from: 3, to: expected.pixels.count, by: 4) { expected.pixels[i] = 255 }
      }
      let runLength = PNGEncoder(pixelFormat: format, deflater: .runLengthHuffman, filter: filter)
      let isal = (0...3).map {
        PNGEncoder(pixelFormat: format, deflater: .isal, compressionLevel: $0, filter: filter)
      }
      for options in [runLength] + isal {
        let data = try image.pngData(options: options)
        #expect(
          try Image(pngData: data) == expected,
          "\(width)×\(height) \(options.deflater) level \(options.compressionLevel)")
      }
    }
  }

  @Test("16-bit depth maps decode to the input, every filter", arguments: filters)
  func depthRoundTrip(filter: PNGEncoder.Filter) throws {
    let values = (0..<(300 * 40)).map { UInt16(truncatingIfNeeded: ($0 % 300) &* 211 &+ $0 / 7) }
    let depth = try #require(DepthImage(width: 300, height: 40, millimetres: values))
    for deflater in [PNGEncoder.Deflater.runLengthHuffman, .isal] {
      let data = try depth.pngData(options: PNGEncoder(deflater: deflater, filter: filter))
      #expect(data[24] == 16 && data[25] == 0)
      #expect(try DepthImage(pngData: data) == depth, "\(deflater)")
    }
  }

  @Test("the container: signature, IHDR, one IDAT holding a zlib stream, IEND")
  func containerLayout() throws {
    let image = Self.frameLike(width: 37, height: 11, opaque: true)
    let data = try image.pngData()
    #expect(Array(data[0..<8]) == [137, 80, 78, 71, 13, 10, 26, 10])
    // IHDR: length 13, type, width 37, height 11, depth 8, colour type 2, 0, 0, 0.
    #expect(
      Array(data[8..<29]) == [
        0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 37, 0, 0, 0, 11, 8, 2, 0, 0, 0,
      ])
    let idatLength = data[33..<37].reduce(0) { $0 << 8 | Int($1) }
    #expect(Array(data[37..<41]) == Array("IDAT".utf8))
    // zlib header (RFC 1950): deflate with a 32 KiB window, check bits make it divisible by 31.
    #expect(data[41] == 0x78)
    #expect((Int(data[41]) << 8 | Int(data[42])) % 31 == 0)
    // IEND with its well-known CRC AE 42 60 82 right after the IDAT chunk, at the end.
    #expect(data.count == 41 + idatLength + 4 + 12)
    #expect(Array(data.suffix(12)) == [0, 0, 0, 0, 73, 69, 78, 68, 0xAE, 0x42, 0x60, 0x82])
  }

  @Test("the CRC-32 is the PNG/gzip one: check value of \"123456789\" is CBF43926")
  func crcCheckValue() {
    let bytes = Array("123456789".utf8)
    #expect(arsim_pngw_crc32(0, bytes, bytes.count) == 0xCBF4_3926)
    // Continuing a CRC over a split equals one pass (used for the IDAT chunk).
    let first = arsim_pngw_crc32(0, bytes, 4)
    #expect(arsim_pngw_crc32(first, Array(bytes[4...]), 5) == 0xCBF4_3926)
  }

  @Test("the UP filter's SIMD paths equal the definition, widths 0…40 and 1921 (AVX-512 where run)")
  func upFilterPaths() {
    var generator = SystemRandomNumberGenerator()
    for width in Array(0...40) + [1921] {
      let current = (0..<(width * 4 + 32)).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let above = (0..<(width * 4 + 32)).map { _ in UInt8.random(in: 0...255, using: &generator) }
      var expected = [UInt8](repeating: 0, count: width * 3)
      var expectedFirstRow = expected
      for x in 0..<width {
        for c in 0..<3 {
          expected[3 * x + c] = current[4 * x + c] &- above[4 * x + c]
          expectedFirstRow[3 * x + c] = current[4 * x + c]
        }
      }
      for path: Int32 in 0...3 {
        var out = [UInt8](repeating: 0, count: width * 3 + 32)
        let used = arsim_pngw_up_rgbx(current, above, width, &out, path)
        #expect(Array(out[0..<(width * 3)]) == expected, "width \(width), path \(used)")
        _ = arsim_pngw_up_rgbx(current, nil, width, &out, path)
        #expect(Array(out[0..<(width * 3)]) == expectedFirstRow, "first row, path \(used)")
      }
    }
  }

  @Test("the same image gives the same bytes on every run and from several threads at once")
  func deterministic() async throws {
    let image = Self.frameLike(width: 640, height: 360, opaque: true)
    let reference = try image.pngData()
    let results = try await withThrowingTaskGroup(of: [UInt8].self) { group in
      for _ in 0..<4 { group.addTask { try image.pngData() } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.count == 4)
    for bytes in results { #expect(bytes == reference) }
  }

  @Test("pngcheck (Debian, an independent checker) accepts the files")
  func pngcheckAccepts() throws {
    let temporary = TemporaryFolder("pngcheck")
    defer { temporary.remove() }
    let folder = temporary.path
    var paths: [String] = []
    for (i, format) in [PNGEncoder.PixelFormat.rgb8, .rgba8].enumerated() {
      for deflater in [PNGEncoder.Deflater.runLengthHuffman, .isal] {
        let path = folder + "/image\(i)-\(deflater).png"
        try Self.frameLike(width: 300, height: 100, opaque: false).writePNG(
          to: path, options: PNGEncoder(pixelFormat: format, deflater: deflater))
        paths.append(path)
      }
    }
    let depth = try #require(
      DepthImage(width: 4, height: 2, millimetres: [0, 1, 2, 3, 1000, 2000, 65535, 7]))
    try FileIO.writeAtomically(depth.pngData(), to: folder + "/depth.png")
    paths.append(folder + "/depth.png")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/pngcheck")
    process.arguments = ["-q"] + paths
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
  }
}
