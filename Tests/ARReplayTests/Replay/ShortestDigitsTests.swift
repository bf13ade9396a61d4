import ARMath
import Testing

@testable import ARReplay

/// `ShortestDigits` against Swift's own `description` (which the trace line's numbers have
/// always been): powers of two and ten with their neighbours, subnormals, extremes, and
/// millions of random bit patterns, whole numbers, binary fractions and short decimals.
@Suite struct ShortestDigitsTests {
  static func text(_ value: Double) -> String {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ShortestDigits.maximumBytes) {
      guard let base = $0.baseAddress else { return "" }
      let count = ShortestDigits.write(value, to: base)
      return String(decoding: UnsafeBufferPointer(rebasing: $0[..<count]), as: UTF8.self)
    }
  }

  /// The values a case checks that differ from `description`, as bit patterns (finite,
  /// non-zero values only; the trace prints the others itself).
  static func mismatches(_ values: some Sequence<Double>) -> [UInt64] {
    var found: [UInt64] = []
    for value in values where value.isFinite && value != 0 {
      if text(value) != value.description { found.append(value.bitPattern) }
    }
    return found
  }

  @Test("hand-written texts: both layouts, the switches between them, both signs")
  func handWritten() {
    #expect(Self.text(1) == "1.0")
    #expect(Self.text(-2.5) == "-2.5")
    #expect(Self.text(0.1) == "0.1")
    #expect(Self.text(1e-4) == "0.0001")
    #expect(Self.text(1e-5) == "1e-05")
    #expect(Self.text(1e15) == "1000000000000000.0")
    #expect(Self.text(9_007_199_254_740_992) == "9007199254740992.0")
    #expect(Self.text(9_007_199_254_740_994) == "9.007199254740994e+15")
    #expect(Self.text(1e16) == "1e+16")
    #expect(Self.text(Double(bitPattern: 1)) == "5e-324")
    #expect(Self.text(-.greatestFiniteMagnitude) == "-1.7976931348623157e+308")
    #expect(Self.text(2.220446049250313e-16) == "2.220446049250313e-16")
    #expect(Self.text(0.018749999999999996) == "0.018749999999999996")
  }

  @Test("every power of two and of ten, with both neighbours and both signs")
  func powers() {
    var values: [Double] = []
    for exponent in -1074...1023 {
      let p = Double(sign: .plus, exponent: exponent, significand: 1)
      values += [p, p.nextUp, p.nextDown, -p]
    }
    for power in -324...308 {
      let p = Double("1e\(power)")!
      values += [p, p.nextUp, p.nextDown, -p]
    }
    values += [
      .leastNonzeroMagnitude, .leastNormalMagnitude, Double(bitPattern: 0x000F_FFFF_FFFF_FFFF),
      .greatestFiniteMagnitude, .pi, .ulpOfOne, 0.1 + 0.2, 1 / 3.0,
    ]
    #expect(Self.mismatches(values).isEmpty)
  }

  @Test("three million random bit patterns print as description")
  func randomBitPatterns() {
    var random = SplitMix64(seed: 0xD1CE)
    let values = (0..<3_000_000).lazy.map { _ in Double(bitPattern: random.next()) }
    #expect(Self.mismatches(values).isEmpty)
  }

  @Test("a million whole numbers and binary fractions, and 300 000 short decimals")
  func wholeNumbersFractionsAndShortDecimals() {
    var random = SplitMix64(seed: 31)
    var values: [Double] = []
    for _ in 0..<1_000_000 {
      let bits = random.next()
      // Whole numbers of every size, divided by 1 … 2^15: halves, quarters, … (the ties).
      values.append(Double(bits >> (bits & 63)) / Double(1 << (bits >> 58 & 15)))
    }
    for _ in 0..<300_000 {
      let bits = random.next()
      values.append(Double("\(bits % 100_000_000)e\(Int((bits >> 40) % 40) - 20)")!)
    }
    #expect(Self.mismatches(values).isEmpty)
  }
}
