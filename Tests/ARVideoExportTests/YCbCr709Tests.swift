import ARRender
import ARVideoExport
import Testing

@Suite struct YCbCr709Tests {
  /// BT.709 limited-range code values of the primaries, from the formulas with pen and paper
  /// (e.g. red: Y = 16 + 219 · 0.2126 = 62.6, Cb = 128 − 224 · 0.2126 / 1.8556 = 102.3,
  /// Cr = 128 + 112 = 240); they are the 75 %-free colour-bar values of BT.709 tables.
  @Test(
    "uniform colours give the BT.709 limited-range values",
    arguments: [
      ((255, 255, 255), (235, 128, 128)), ((0, 0, 0), (16, 128, 128)),
      ((255, 0, 0), (63, 102, 240)), ((0, 255, 0), (173, 42, 26)),
      ((0, 0, 255), (32, 240, 118)), ((128, 128, 128), (126, 128, 128)),
    ])
  func primaries(rgb: (Int, Int, Int), expected: (Int, Int, Int)) {
    let image = Image(
      width: 2, height: 2, fill: (UInt8(rgb.0), UInt8(rgb.1), UInt8(rgb.2), 255))
    let planes = YCbCr709.planes(of: image)
    #expect(planes.count == 6)
    #expect(planes[0..<4].allSatisfy { Int($0) == expected.0 })
    #expect(Int(planes[4]) == expected.1)
    #expect(Int(planes[5]) == expected.2)
  }

  @Test("odd sizes are padded to even by repeating the last column and row")
  func padding() throws {
    // 3×3: columns 0, 1 black, column 2 white; the padded 4th column repeats white, the
    // padded 4th row repeats row 2.
    var image = Image(width: 3, height: 3)
    for v in 0..<3 { image[2, v] = (255, 255, 255, 255) }
    #expect(YCbCr709.paddedWidth(3) == 4 && YCbCr709.paddedHeight(3) == 4)
    let planes = YCbCr709.planes(of: image)
    #expect(planes.count == 16 + 2 * 4)
    for v in 0..<4 {
      #expect(Array(planes[v * 4..<v * 4 + 4]) == [16, 16, 235, 235])
    }
    // Chroma of a black block and a white block: both neutral.
    #expect(Array(planes[16..<24]) == [128, 128, 128, 128, 128, 128, 128, 128])
  }

  @Test("chroma is the mean of each 2×2 block (red beside blue)")
  func chromaMean() {
    // Left column red, right column blue: mean (127.5, 0, 127.5) →
    // Cb = 128 + 224/255 · (127.5 − 0.2837 · 127.5) / 1.8556 = 171.2... computed exactly below.
    var image = Image(width: 2, height: 2)
    image[0, 0] = (255, 0, 0, 255)
    image[0, 1] = (255, 0, 0, 255)
    image[1, 0] = (0, 0, 255, 255)
    image[1, 1] = (0, 0, 255, 255)
    let e = 0.2126 * 127.5 + 0.0722 * 127.5
    let cb = (128 + 224 * (127.5 - e) / (255 * 1.8556)).rounded()
    let cr = (128 + 224 * (127.5 - e) / (255 * 1.5748)).rounded()
    let planes = YCbCr709.planes(of: image)
    #expect(Double(planes[4]) == cb)
    #expect(Double(planes[5]) == cr)
  }
}
