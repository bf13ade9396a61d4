import ARRender
import ARTestSupport
import Testing

/// A small PNG declaring a huge image is refused from its header (`PNGDecodeLimits`), before
/// the 1 GiB a 16384 × 16384 RGBA decode would allocate.
@Suite struct PNGDecodeLimitTests {
  @Test("the hand-built zero PNG is a valid PNG of black pixels")
  func generatorIsValid() throws {
    let image = try Image(pngData: ZeroPNG.bytes(width: 67, height: 5))
    #expect(image.width == 67 && image.height == 5)
    #expect(image[66, 4] == (0, 0, 0, 255))
    #expect(image[0, 0] == (0, 0, 0, 255))
  }

  @Test("16384 × 16384 (256 Mi px, within 16384 a side) is refused naming the 64 Mi px limit")
  func hugeDimensions() {
    let bytes = ZeroPNG.bytes(width: 16384, height: 16384)
    #expect(bytes.count < 300_000)
    #expect {
      _ = try Image(pngData: bytes, file: "bomb.png")
    } throws: { error in
      "\(error)".contains("bomb.png") && "\(error)".contains("16384×16384")
        && "\(error)".contains("64 Mi pixels")
    }
  }

  @Test("64 Mi px is the limit: one row more is refused, for depth maps too")
  func justOver() {
    let bytes = ZeroPNG.bytes(width: 16384, height: 4097)
    #expect(throws: PNGError.self) { _ = try Image(pngData: bytes) }
    #expect(throws: PNGError.self) { _ = try DepthImage(pngData: bytes) }
  }

  @Test("a header of 0×0 pixels is said to be empty (libpng's message named the IHDR only)")
  func empty() {
    var bytes = ZeroPNG.bytes(width: 1, height: 1)
    bytes.replaceSubrange(16..<24, with: [UInt8](repeating: 0, count: 8))
    #expect {
      _ = try Image(pngData: bytes, file: "zero.png")
    } throws: { error in
      "\(error)" == "zero.png: invalid PNG: image of 0×0 pixels is empty"
    }
  }
}
