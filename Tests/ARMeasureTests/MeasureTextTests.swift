import Foundation
import Testing

@testable import ARMeasure

@Suite struct MeasureTextTests {
  @Test(
    "two decimals round the exact binary value, ties to even, as printf",
    arguments: [
      (0.125, "0.12"), (0.375, "0.38"), (1.005, "1.00"), (2.675, "2.67"), (12.345, "12.35"),
      (0, "0.00"), (-0.0, "-0.00"), (-1.234, "-1.23"), (99.995, "100.00"), (0.005, "0.01"),
      (1234.5, "1234.50"),
    ])
  func knownValues(value: Double, text: String) {
    #expect(MeasureText.twoDecimals(value) == text)
  }

  @Test("the payload is centimetres with two decimals and a unit")
  func payload() {
    #expect(MeasureText.centimetres(metres: 0.1235) == "12.35 cm")
    #expect(MeasureText.centimetres(metres: 0) == "0.00 cm")
  }

  @Test("agrees with Foundation's String(format: \"%.2f\") on 20 000 pseudo-random values")
  func matchesPrintf() {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    var mismatches: [Double] = []
    for index in 0..<20_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let unit = Double(state >> 11) / Double(1 << 53)
      // Half the values on exact-looking hundredths ± a few ulps, half spread over 0…1000.
      let value =
        index % 2 == 0
        ? (Double(Int(unit * 100_000)) + 0.5) / 100 : unit * 1000
      if MeasureText.twoDecimals(value) != String(format: "%.2f", value) {
        mismatches.append(value)
      }
    }
    #expect(mismatches.isEmpty, "mismatches: \(mismatches.prefix(5))")
  }
}
