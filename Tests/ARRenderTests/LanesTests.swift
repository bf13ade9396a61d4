import Testing

@testable import ARRasterizer
@testable import ARRender

@Suite("Lane helpers")
struct LanesTests {
  @Test("select takes a where the mask is set and b elsewhere, for any lane type")
  func select() {
    let depths = SIMD8<Double>(1, 5, 2, 6, 3, 7, 4, 8)
    let nearer = depths .< 4.5
    let a = SIMD8<Float>(10, 11, 12, 13, 14, 15, 16, 17)
    let b = SIMD8<Float>(repeating: -1)
    #expect(ARRasterizer.select(nearer, a, b) == SIMD8(10, -1, 12, -1, 14, -1, 16, -1))
    let ids = ARRasterizer.select(nearer, SIMD8<Int32>(repeating: 9), SIMD8<Int32>(repeating: 0))
    #expect(ids == SIMD8(9, 0, 9, 0, 9, 0, 9, 0))
    let four = SIMD4<Float>(0, 1, 2, 3)
    #expect(ARRasterizer.select(four .> 1, four, .zero) == SIMD4(0, 0, 2, 3))
  }

  @Test("anyLane is true exactly when some lane is set")
  func anyLane() {
    #expect(!(SIMD8<Double>(repeating: 1) .> 1).anyLane())
    for lane in 0..<8 {
      var x = SIMD8<Double>(repeating: 0)
      x[lane] = 2
      #expect((x .> 1).anyLane(), "lane \(lane)")
      var y = SIMD8<Float>(repeating: 0)
      y[lane] = 2
      #expect((y .> 1).anyLane(), "lane \(lane)")
    }
  }

  @Test("narrowing rounds to the nearest Float, magnitude clears signs")
  func conversions() {
    let x = SIMD8<Double>(0.1, -2.5, 1e-50, 3e38, -0.0, 1 / 3, 16_777_217, .infinity)
    let narrow = SIMD8<Float>(narrowing: x)
    for lane in 0..<8 { #expect(narrow[lane] == Float(x[lane]), "lane \(lane)") }
    #expect(narrow.magnitude == SIMD8(0.1, 2.5, 0, 3e38, 0, Float(1.0 / 3), 16_777_216, .infinity))
    #expect(narrow.magnitude[4].sign == .plus)
  }
}
