import ARMath
import Testing

@testable import ARSession

@Suite("SeededDraws")
struct SeededDrawsTests {
  @Test("the same key gives the same value; keys differ by seed, part and number")
  func keyed() {
    let draws = SeededDraws(seed: 42)
    let a = draws.unit(["A", "B"], [1, 0])
    #expect(a == SeededDraws(seed: 42).unit(["A", "B"], [1, 0]))
    #expect(a != SeededDraws(seed: 43).unit(["A", "B"], [1, 0]))
    #expect(a != draws.unit(["A", "B"], [2, 0]))
    #expect(draws.bits(["ab", "c"], []) != draws.bits(["a", "bc"], []))
  }

  @Test("SplitMix64's finalizer matches the generator in ARMath")
  func finalizer() {
    // SplitMix64(seed: s).next() = finalizer(s): both add the golden-ratio step, then mix.
    var generator = SplitMix64(seed: 12_345)
    #expect(SeededDraws.splitMix64Finalizer(12_345) == generator.next())
  }

  @Test("values are uniform in [0, 1): mean and spread of 10 000 draws")
  func uniform() {
    let draws = SeededDraws(seed: 1)
    let values = (0..<10_000).map { draws.unit(["u"], [UInt64($0)]) }
    #expect(values.allSatisfy { $0 >= 0 && $0 < 1 })
    let mean = values.reduce(0, +) / 10_000
    // Standard error of the mean: sqrt(1/12 / 10 000) = 0.0029; allow 5 of them.
    #expect(abs(mean - 0.5) < 0.015)
    let low = values.filter { $0 < 0.1 }.count
    #expect(abs(low - 1_000) < 150)
  }
}
