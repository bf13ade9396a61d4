import Testing

@testable import ARRender

@Suite("Image.isOpaque")
struct ImageOpacityTests {
  @Test("an opaque image of an odd pixel count is opaque")
  func opaque() {
    #expect(Image(width: 3, height: 3, fill: (10, 20, 30, 255)).isOpaque)
    #expect(Image(width: 0, height: 0).isOpaque)
  }

  @Test("one translucent pixel anywhere makes it not opaque, whatever the other bytes")
  func oneTranslucentPixel() {
    // 3 × 3 = 9 pixels: positions in the first and second half of a 64-bit word and the tail.
    for position in 0..<9 {
      var image = Image(width: 3, height: 3, fill: (255, 255, 255, 255))
      image.pixels[position * 4 + 3] = 254
      #expect(!image.isOpaque, "pixel \(position)")
    }
  }

  @Test("zero colour bytes do not count as transparency")
  func colourBytesIgnored() {
    #expect(Image(width: 5, height: 1, fill: (0, 0, 0, 255)).isOpaque)
  }
}
