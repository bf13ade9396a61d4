import ARFormats
import Testing

@Suite struct YCbCrConversionTests {
  let full = YCbCrConversion(range: .full)
  let limited = YCbCrConversion(range: .limited)
  let kernel = YCbCrConversion(range: .limited, appKernel: true)

  /// Whether two RGB triples differ by at most `tolerance` per channel.
  func near(_ a: (r: UInt8, g: UInt8, b: UInt8), _ b: (Int, Int, Int), _ tolerance: Int = 0)
    -> Bool
  {
    abs(Int(a.r) - b.0) <= tolerance && abs(Int(a.g) - b.1) <= tolerance
      && abs(Int(a.b) - b.2) <= tolerance
  }

  @Test("full-range white (255, 128, 128) is (255, 255, 255)")
  func fullWhite() {
    #expect(near(full.rgb(y: 255, cb: 128, cr: 128), (255, 255, 255)))
  }

  @Test("the app kernel centres chroma at 127.5, so white is (255, 254, 255)")
  func kernelWhite() {
    // u = v = 128/255 − 0.5 = 0.00196; G = 1 − (0.3441 + 0.7141)·0.00196 = 0.99793 → 254.47.
    #expect(near(kernel.rgb(y: 255, cb: 128, cr: 128), (255, 254, 255)))
  }

  @Test("the app kernel ignores the range: limited black (16) stays dark grey, not black")
  func kernelIgnoresRange() {
    // y = 16/255; u = v = 0.00196: R = 0.0627 + 0.00275 = 0.06550 → 16.70 → 17;
    // G = 0.0627 − 0.00208 = 0.06067 → 15.47 → 15; B = 0.0627 + 0.00347 = 0.06622 → 16.89 → 17.
    #expect(near(kernel.rgb(y: 16, cb: 128, cr: 128), (17, 15, 17)))
  }

  @Test("limited-range white (235, 128, 128) and black (16, 128, 128)")
  func limitedWhiteAndBlack() {
    #expect(near(limited.rgb(y: 235, cb: 128, cr: 128), (255, 255, 255)))
    #expect(near(limited.rgb(y: 16, cb: 128, cr: 128), (0, 0, 0)))
  }

  @Test("red: full (76, 85, 255) and limited (81, 90, 240) give (254, 0, 0) ± 1")
  func red() {
    // Full: R = 76 + 1.402·127 = 254.05; G = 76 + 0.344136·43 − 0.714136·127 = 0.11;
    // B = 76 − 1.772·43 = −0.20 → 0.
    #expect(near(full.rgb(y: 76, cb: 85, cr: 255), (254, 0, 0), 1))
    // Limited: y = 65·255/219 = 75.68, u = −43.26, v = 127.5: R = 254.44, G = −0.48, B = −0.98.
    #expect(near(limited.rgb(y: 81, cb: 90, cr: 240), (254, 0, 0), 1))
  }

  @Test("limited range clamps super-white and super-black")
  func clamping() {
    #expect(near(limited.rgb(y: 255, cb: 128, cr: 128), (255, 255, 255)))
    #expect(near(limited.rgb(y: 0, cb: 128, cr: 128), (0, 0, 0)))
  }

  @Test("a 2×2 frame: one chroma sample covers the whole block; mono is grey")
  func textureUpsampling() throws {
    let rate = try #require(FrameRate(numerator: 25, denominator: 1))
    let header = Y4MHeader(width: 2, height: 2, frameRate: rate, range: .full)
    let frame = try #require(
      Y4MFrame(index: 0, header: header, planes: [0, 255, 76, 128, 85, 255]))
    let texture = full.texture(from: frame)
    #expect(texture.width == 2 && texture.height == 2)
    // Pixel (0,0): Y 0 + red chroma: R = 178.05 → 178, G = 14.80 − 90.69 → 0, B = −76.2 → 0.
    #expect(Array(texture.pixels[0..<4]) == [178, 0, 0, 255])
    // Pixel (1,0): Y 255: R 255, G = 255 − 75.9 = 179.1 → 179, B = 255 − 76.2 = 178.8 → 179.
    #expect(Array(texture.pixels[4..<8]) == [255, 179, 179, 255])
    // Pixel (0,1): Y 76 → (254, 0, 0).
    #expect(Array(texture.pixels[8..<12]) == [254, 0, 0, 255])

    let mono = Y4MHeader(width: 2, height: 1, frameRate: rate, colorSpace: .mono, range: .limited)
    let monoFrame = try #require(Y4MFrame(index: 0, header: mono, planes: [16, 126]))
    // (126 − 16)·255/219 = 128.08 → 128.
    #expect(limited.image(from: monoFrame).pixels == [0, 0, 0, 255, 128, 128, 128, 255])
  }
}
