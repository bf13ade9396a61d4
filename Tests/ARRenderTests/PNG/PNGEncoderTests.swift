import Testing

@testable import ARRender

@Suite("PNGEncoder")
struct PNGEncoderTests {
  /// A deterministic image whose every byte differs from its neighbours.
  static func pattern(width: Int, height: Int, opaque: Bool) -> Image {
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for i in 0..<(width * height) {
      pixels[i * 4] = UInt8(truncatingIfNeeded: i &* 7)
      pixels[i * 4 + 1] = UInt8(truncatingIfNeeded: i &* 13 &+ 5)
      pixels[i * 4 + 2] = UInt8(truncatingIfNeeded: i &* 31 &+ 9)
      pixels[i * 4 + 3] = opaque ? 255 : UInt8(truncatingIfNeeded: i &* 3 &+ 1)
    }
    var image = Image(width: width, height: height)
    image.pixels = pixels
    return image
  }

  static let sizes = [(1, 1), (3, 7), (1921, 1)]

  @Test("RGBA8 round trip is exact", arguments: sizes)
  func rgbaRoundTrip(size: (Int, Int)) throws {
    let image = Self.pattern(width: size.0, height: size.1, opaque: false)
    let data = try image.pngData(options: PNGEncoder(pixelFormat: .rgba8))
    #expect(data[25] == 6)  // IHDR colour type: RGBA
    #expect(try Image(pngData: data) == image)
  }

  @Test("RGB8 round trip keeps colour and reads back opaque", arguments: sizes)
  func rgbRoundTrip(size: (Int, Int)) throws {
    let image = Self.pattern(width: size.0, height: size.1, opaque: false)
    let data = try image.pngData(options: PNGEncoder(pixelFormat: .rgb8))
    #expect(data[25] == 2)  // IHDR colour type: RGB
    var opaque = image
    for i in stride(from: 3, to: opaque.pixels.count, by: 4) { opaque.pixels[i] = 255 }
    #expect(try Image(pngData: data) == opaque)
  }

  @Test("gray16 depth round trip is exact", arguments: sizes)
  func depthRoundTrip(size: (Int, Int)) throws {
    let values = (0..<(size.0 * size.1)).map { UInt16(truncatingIfNeeded: $0 &* 2731 &+ 258) }
    let depth = try #require(DepthImage(width: size.0, height: size.1, millimetres: values))
    let data = try depth.pngData()
    #expect(data[24] == 16 && data[25] == 0)  // IHDR: 16-bit grayscale
    #expect(try DepthImage(pngData: data) == depth)
  }

  @Test("automatic format writes RGB for opaque images and RGBA otherwise")
  func automaticFormat() throws {
    #expect(try Self.pattern(width: 2, height: 2, opaque: true).pngData()[25] == 2)
    #expect(try Self.pattern(width: 2, height: 2, opaque: false).pngData()[25] == 6)
  }

  @Test(
    "every filter and strategy round-trips",
    arguments: [PNGEncoder.Filter.none, .sub, .up, .paeth, .adaptive],
    [PNGEncoder.Strategy.default, .filtered, .huffmanOnly, .runLength, .fixed])
  func filtersAndStrategies(filter: PNGEncoder.Filter, strategy: PNGEncoder.Strategy) throws {
    let image = Self.pattern(width: 5, height: 4, opaque: false)
    let options = PNGEncoder(
      deflater: .zlib, compressionLevel: 6, filter: filter, strategy: strategy)
    #expect(try Image(pngData: image.pngData(options: options)) == image)
  }

  @Test("an empty image cannot be encoded")
  func emptyImageThrows() {
    #expect(throws: PNGError.self) { try Image(width: 0, height: 3).pngData() }
  }

  @Test("writePNG and contentsOfPNG round trip through a file")
  func fileRoundTrip() throws {
    let path = "/tmp/arsim-png-test-\(UInt32.random(in: 0...UInt32.max)).png"
    let image = Self.pattern(width: 4, height: 3, opaque: true)
    try image.writePNG(to: path)
    #expect(try Image(contentsOfPNG: path) == image)
  }

  @Test("a missing file is a missing-input error naming the path")
  func missingFile() {
    do {
      _ = try Image(contentsOfPNG: "/nonexistent/frame.png")
      Issue.record("expected an error")
    } catch let error as InputError {
      #expect(error.kind == .missingInput)
      #expect(error.location.file == "/nonexistent/frame.png")
    } catch {
      Issue.record("unexpected \(error)")
    }
  }
}
