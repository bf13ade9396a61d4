import Testing

@testable import ARRender

@Suite("ImageComparison")
struct ImageComparisonTests {
  static let grey = (UInt8(100), UInt8(100), UInt8(100), UInt8(255))

  /// A 5×5 grey image with pixel (2, 2) set to `pixel`.
  static func withCentre(_ pixel: (UInt8, UInt8, UInt8, UInt8)) -> Image {
    var image = Image(width: 5, height: 5, fill: grey)
    image[2, 2] = (pixel.0, pixel.1, pixel.2, pixel.3)
    return image
  }

  /// An 8×6 black-to-white vertical edge with one grey (128) anti-aliasing column at `edge`.
  static func edge(at edge: Int) -> Image {
    var image = Image(width: 8, height: 6)
    for v in 0..<6 {
      for u in 0..<8 {
        let value: UInt8 = u < edge ? 0 : (u == edge ? 128 : 255)
        image[u, v] = (value, value, value, 255)
      }
    }
    return image
  }

  @Test("identical images have no difference in either mode")
  func identical() throws {
    let image = Self.edge(at: 3)
    for mode in [ImageComparison.Mode.exact, .perceptual()] {
      let result = ImageComparison(mode: mode).compare(expected: image, actual: image)
      let difference = try #require(result.difference)
      #expect(difference.differingPixelCount == 0)
      #expect(difference.antiAliasedPixelCount == 0)
      #expect(difference.boundingBox == nil)
      #expect(difference.maxChannelDelta == 0)
      #expect(result.isWithin(.pixels(0)))
    }
  }

  @Test("exact mode counts one changed pixel with its box and channel delta")
  func exactOnePixel() throws {
    let result = ImageComparison().compare(
      expected: Self.withCentre(Self.grey), actual: Self.withCentre((100, 103, 100, 250)))
    let difference = try #require(result.difference)
    #expect(difference.differingPixelCount == 1)
    #expect(difference.pixelCount == 25)
    #expect(difference.differingFraction == 0.04)
    #expect(difference.boundingBox == PixelBoundingBox(minU: 2, minV: 2, maxU: 2, maxV: 2))
    #expect(difference.maxChannelDelta == 5)
    #expect(!result.isWithin(.pixels(0)))
    #expect(result.isWithin(.pixels(1)))
    #expect(result.isWithin(.fraction(0.04)))
    #expect(!result.isWithin(.fraction(0.039)))
  }

  @Test("perceptual mode counts a pixel only when its YIQ distance exceeds 35215·t²")
  func perceptualThreshold() throws {
    // Expected (100, 100, 100) vs actual (110, 100, 100): dr = −10, dg = db = 0.
    let dr = -10.0
    let y = dr * 0.29889531  // −2.9889531
    let i = dr * 0.59597799  // −5.9597799
    let q = dr * 0.21147017  // −2.1147017
    let distance = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q  // 16.0096…
    #expect(abs(distance - 16.0096068) < 1e-6)
    // Threshold where maxDelta equals the distance: √(16.0096 / 35215) = 0.021322.
    let below = 0.02  // maxDelta 14.086 < 16.0096: counted
    let above = 0.025  // maxDelta 22.009 > 16.0096: not counted
    #expect(35215 * below * below < distance && 35215 * above * above > distance)
    let expected = Self.withCentre(Self.grey)
    let actual = Self.withCentre((110, 100, 100, 255))
    let counted = ImageComparison(mode: .perceptual(threshold: below))
      .compare(expected: expected, actual: actual).difference
    #expect(counted?.differingPixelCount == 1)
    #expect(counted?.antiAliasedPixelCount == 0)
    #expect(counted?.maxChannelDelta == 10)
    let ignored = ImageComparison(mode: .perceptual(threshold: above))
      .compare(expected: expected, actual: actual).difference
    #expect(ignored?.differingPixelCount == 0)
    #expect(ignored?.boundingBox == nil)
    #expect(ignored?.maxChannelDelta == 10)  // still reported
    // The default threshold 0.1 (maxDelta 352.15) ignores it too.
    #expect(
      ImageComparison(mode: .perceptual()).compare(expected: expected, actual: actual)
        .difference?.differingPixelCount == 0)
  }

  @Test("colour delta blends semi-transparent pixels over white")
  func alphaOverWhite() throws {
    // (0, 0, 0, 0) over white is white: no perceptual difference from opaque white.
    let expected = Self.withCentre((255, 255, 255, 255))
    let actual = Self.withCentre((0, 0, 0, 0))
    let result = ImageComparison(mode: .perceptual(threshold: 0))
      .compare(expected: expected, actual: actual)
    #expect(result.difference?.differingPixelCount == 0)
    #expect(result.difference?.maxChannelDelta == 255)
    #expect(
      ImageComparison().compare(expected: expected, actual: actual)
        .difference?.differingPixelCount == 1)
  }

  @Test("a 1-px anti-aliased edge shifted by one pixel is anti-aliasing, not a difference")
  func antiAliasedEdge() throws {
    // Columns 3 (grey → black) and 4 (white → grey) change in all 6 rows: 12 pixels.
    let expected = Self.edge(at: 3)
    let actual = Self.edge(at: 4)
    let perceptual = try #require(
      ImageComparison(mode: .perceptual()).compare(expected: expected, actual: actual).difference)
    #expect(perceptual.differingPixelCount == 0)
    #expect(perceptual.antiAliasedPixelCount == 12)
    let including = try #require(
      ImageComparison(mode: .perceptual(includeAntiAliased: true))
        .compare(expected: expected, actual: actual).difference)
    #expect(including.differingPixelCount == 12)
    #expect(including.boundingBox == PixelBoundingBox(minU: 3, minV: 0, maxU: 4, maxV: 5))
    let exact = try #require(
      ImageComparison().compare(expected: expected, actual: actual).difference)
    #expect(exact.differingPixelCount == 12)
    #expect(exact.maxChannelDelta == 128)
  }

  @Test("different sizes are a size mismatch")
  func sizeMismatch() {
    let result = ImageComparison(mode: .perceptual()).compare(
      expected: Image(width: 4, height: 3), actual: Image(width: 3, height: 4))
    #expect(
      result
        == .sizeMismatch(
          expected: PixelSize(width: 4, height: 3), actual: PixelSize(width: 3, height: 4)))
    #expect(!result.isWithin(.fraction(1)))
  }

  @Test("the diff image is faded grey, red for differences, yellow for anti-aliasing")
  func diffImage() throws {
    var expected = Self.edge(at: 3)
    expected[0, 0] = (10, 20, 30, 255)
    var actual = Self.edge(at: 4)
    actual[0, 0] = (10, 20, 30, 255)
    actual[7, 5] = (255, 0, 0, 255)  // white → red: a real difference
    let difference = try #require(
      ImageComparison(mode: .perceptual())
        .compare(expected: expected, actual: actual, makeDiffImage: true).difference)
    let diff = try #require(difference.diffImage)
    #expect(difference.differingPixelCount == 1)
    // Unchanged: 255 + (Y − 255)·0.1 with Y = 10·0.29889531 + 20·0.58662247 + 30·0.11448223
    // = 18.156 → 231.32 → 231; black → 229.5 → 230 (half to even, as Uint8ClampedArray).
    #expect(diff[0, 0] == (231, 231, 231, 255))
    #expect(diff[1, 1] == (230, 230, 230, 255))
    #expect(diff[7, 0] == (255, 255, 255, 255))
    #expect(diff[3, 2] == (255, 255, 0, 255))
    #expect(diff[4, 2] == (255, 255, 0, 255))
    #expect(diff[7, 5] == (255, 0, 0, 255))
  }
}
