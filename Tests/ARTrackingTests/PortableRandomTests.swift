import ARMath
import ARTracking
import Foundation
import Testing

@Suite struct PortableRandomTests {
  @Test(
    "xoshiro256** matches the reference code's outputs (computed with an independent Python port)")
  func referenceOutputs() {
    var fromState = Xoshiro256StarStar(state: (1, 2, 3, 4))
    #expect(
      [fromState.next(), fromState.next(), fromState.next(), fromState.next()] == [
        0x2d00, 0, 0x5a00_7080, 0x10e0_0000_0000_9d80,
      ])
    var seeded = Xoshiro256StarStar(seed: 42)  // state = four SplitMix64(42) outputs
    #expect(
      [seeded.next(), seeded.next(), seeded.next()] == [
        0x1578_0b2e_0c2e_c716, 0x6104_d986_6d11_3a7e, 0xae17_5332_39e4_99a1,
      ])
  }

  @Test("the portable logarithm agrees with the C library's within 2e-16 relative")
  func logarithm() {
    var generator = SplitMix64(seed: 7)
    for _ in 0..<2000 {
      let x =
        Double.random(in: 1e-300...1, using: &generator)
        * (Bool.random(using: &generator) ? 1 : 1e10)
      let expected = Foundation.log(x)
      #expect(abs(PortableMath.log(x) - expected) <= 2e-16 * max(1, abs(expected)) * 4)
    }
    #expect(PortableMath.log(1) == 0)
    #expect(abs(PortableMath.log(2) - 0.693_147_180_559_945_3) < 1e-16)
  }

  @Test("the portable rotation matches Quaternion(axis:angleRadians:) up to π")
  func rotationVector() {
    for (axis, angle) in [
      (Vector3(0, 1, 0), 0.0), (Vector3(1, 2, 3), 0.001), (Vector3(-1, 0.5, 0.2), 1.3),
      (Vector3(0, 0, 1), Double.pi),
    ] {
      let unit = axis / axis.length
      let q = PortableMath.rotation(vector: unit * angle)
      let expected = Quaternion(axis: unit, angleRadians: angle)
      #expect(abs(q.x - expected.x) < 1e-12 && abs(q.y - expected.y) < 1e-12)
      #expect(abs(q.z - expected.z) < 1e-12 && abs(q.w - expected.w) < 1e-12)
    }
  }

  @Test("normal values: mean 0 and σ 1 over 100 000 draws; the same seed repeats them")
  func gaussian() {
    var stream = GaussianStream(seed: 3)
    var sum = 0.0
    var squares = 0.0
    let n = 100_000
    for _ in 0..<n {
      let x = stream.next()
      sum += x
      squares += x * x
    }
    let mean = sum / Double(n)
    #expect(abs(mean) < 0.015)  // 4.7 standard errors
    #expect(abs((squares / Double(n) - mean * mean).squareRoot() - 1) < 0.01)
    var a = GaussianStream(seed: 9)
    var b = GaussianStream(seed: 9)
    var c = GaussianStream(seed: 10)
    let first = (0..<8).map { _ in a.next() }
    #expect(first == (0..<8).map { _ in b.next() })
    #expect(first != (0..<8).map { _ in c.next() })
  }
}
