import Testing

@testable import ARRender

/// Decoding files written by pypng (see __Fixtures__/png/generate.py for the values).
@Suite("PNG decoding")
struct PNGDecodingTests {
  func load(_ name: String) throws -> Image {
    try Image(contentsOfPNG: PNGFixtures.path(name))
  }

  @Test("palette with tRNS expands to RGBA with per-entry alpha")
  func palette() throws {
    let image = try load("palette-trns.png")
    #expect(image.width == 3 && image.height == 2)
    #expect(
      image.pixels == [
        255, 0, 0, 255, 0, 128, 255, 128, 10, 20, 30, 0,
        10, 20, 30, 0, 0, 128, 255, 128, 255, 0, 0, 255,
      ])
  }

  @Test("gray + alpha expands gray to R = G = B")
  func grayAlpha() throws {
    let image = try load("gray-alpha.png")
    #expect(
      image.pixels == [
        0, 0, 0, 255, 128, 128, 128, 64,
        255, 255, 255, 0, 37, 37, 37, 200,
      ])
  }

  @Test("16-bit RGB reduces by rounding v·255/65535 = v/257 and adds opaque alpha")
  func rgb16() throws {
    let image = try load("rgb16.png")
    // 32767/257 = 127.498 → 127, 32768/257 = 127.502 → 128, 384/257 = 1.494 → 1,
    // 386/257 = 1.502 → 2, 128/257 = 0.498 → 0, 129/257 = 0.502 → 1,
    // 65280/257 = 254.008 → 254, 65406/257 = 254.498 → 254, 65407/257 = 254.502 → 255.
    #expect(
      image.pixels == [
        255, 0, 128, 255, 1, 127, 128, 255, 1, 2, 0, 255,
        0, 1, 255, 255, 0, 0, 0, 255, 254, 254, 255, 255,
      ])
  }

  @Test("Adam7 interlaced image is de-interlaced")
  func adam7() throws {
    let image = try load("adam7.png")
    #expect(image.width == 10 && image.height == 10)
    for v in 0..<10 {
      for u in 0..<10 {
        let pixel = image[u, v]
        #expect(pixel.r == UInt8(25 * u) && pixel.g == UInt8(25 * v))
        #expect(pixel.b == UInt8(255 - 2 * u * v) && pixel.a == 255)
      }
    }
  }

  @Test("16-bit gray decodes as a depth map and as RGBA")
  func gray16() throws {
    let data = try FileIO.read(PNGFixtures.path("gray16.png"))
    #expect(try DepthImage(pngData: data).millimetres == [0, 1000, 65535])
    // 1000/257 = 3.891 → 4
    #expect(try Image(pngData: data).pixels == [0, 0, 0, 255, 4, 4, 4, 255, 255, 255, 255, 255])
  }

  @Test("8-bit gray widens to 16 bits as v·257 in a depth map, dropping alpha")
  func grayAsDepth() throws {
    let data = try FileIO.read(PNGFixtures.path("gray-alpha.png"))
    // 0, 128, 255, 37 → 0, 32896, 65535, 9509
    #expect(try DepthImage(pngData: data).millimetres == [0, 32896, 65535, 9509])
  }

  @Test("a corrupt PNG throws with the file name and libpng's message")
  func corrupt() throws {
    var data = try PNGEncoderTests.pattern(width: 8, height: 8, opaque: true).pngData()
    data[41 + 10] ^= 0xFF  // inside the IDAT data: the CRC no longer matches
    do {
      _ = try Image(pngData: data, file: "broken.png")
      Issue.record("expected an error")
    } catch let error as PNGError {
      #expect(error.kind == .badData)
      #expect(error.location.file == "broken.png")
      #expect(error.description.hasPrefix("broken.png: invalid PNG: "))
      #expect(error.reason.count > "invalid PNG: ".count)
    }
  }

  @Test("a truncated PNG throws", arguments: [0, 7, 8, 20, 40, 60])
  func truncated(length: Int) throws {
    let data = try PNGEncoderTests.pattern(width: 8, height: 8, opaque: true).pngData()
    #expect(throws: PNGError.self) { try Image(pngData: Array(data.prefix(length))) }
    #expect(throws: PNGError.self) { try DepthImage(pngData: Array(data.prefix(length))) }
  }

  @Test("a file that is not a PNG throws")
  func notPNG() {
    #expect(throws: PNGError.self) { try Image(pngData: Array("hello, world".utf8)) }
  }
}
