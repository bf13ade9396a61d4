import ARRenderCore
import ARScene
import Testing

/// `MipmappedTexture`'s chain: each level the rounded mean of the 2 × 2 texels below it, edge
/// texels repeated where a size is odd, down to 1 × 1, all in one array.
@Suite struct MipChainTests {
  @Test("A 3 × 1 texture: levels worked by hand, odd edges repeated, one array")
  func oddWidth() throws {
    // Red 10, 20, 31; green 0, 255, 1; blue 7 everywhere; alpha 255.
    let base = try #require(
      Texture(width: 3, height: 1, pixels: [10, 0, 7, 255, 20, 255, 7, 255, 31, 1, 7, 255]))
    let chain = MipmappedTexture(base)
    #expect(chain.layout == [SIMD3(3, 1, 0), SIMD3(2, 1, 12), SIMD3(1, 1, 20)])
    // Level 1: (10 + 20 + 10 + 20 + 2) / 4 = 15 and (4 · 31 + 2) / 4 = 31; green
    // (0 + 255 + 0 + 255 + 2) / 4 = 128 and 1. Level 2: (15 + 31 + 15 + 31 + 2) / 4 = 23,
    // (128 + 1 + 128 + 1 + 2) / 4 = 65.
    #expect(
      chain.texels
        == base.pixels + [15, 128, 7, 255, 31, 1, 7, 255] + [23, 65, 7, 255])
    #expect(chain.levels.map(\.width) == [3, 2, 1])
  }

  @Test("A 5 × 6 texture: every level equals the 2 × 2 mean computed texel by texel")
  func everyLevel() throws {
    var pixels: [UInt8] = []
    for y in 0..<6 {
      for x in 0..<5 {
        pixels += [UInt8(41 * x + 3 * y), UInt8(17 * y), UInt8((x * y * 29) % 256), 200]
      }
    }
    let base = try #require(Texture(width: 5, height: 6, pixels: pixels))
    let chain = MipmappedTexture(base, wrapU: .clamp, wrapV: .mirroredRepeat)
    var expected = [base]
    while let last = expected.last, last.width > 1 || last.height > 1 {
      let width = (last.width + 1) / 2
      let height = (last.height + 1) / 2
      var next: [UInt8] = []
      for y in 0..<height {
        for x in 0..<width {
          for channel in 0..<4 {
            var sum = 2
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
              let sx = min(2 * x + dx, last.width - 1)
              let sy = min(2 * y + dy, last.height - 1)
              sum += Int(last.pixels[(sy * last.width + sx) * 4 + channel])
            }
            next.append(UInt8(sum / 4))
          }
        }
      }
      expected.append(try #require(Texture(width: width, height: height, pixels: next)))
    }
    #expect(expected.map(\.width) == [5, 3, 2, 1])
    #expect(expected.map(\.height) == [6, 3, 2, 1])
    #expect(chain.levels == expected)
    #expect(chain.texels.count == (30 + 9 + 4 + 1) * 4)
    #expect(chain.wrapU == .clamp && chain.wrapV == .mirroredRepeat)
  }
}
