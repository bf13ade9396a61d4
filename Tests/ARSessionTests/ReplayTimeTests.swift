import ARSession
import Testing

@Suite("ReplayTime")
struct ReplayTimeTests {
  @Test("seconds round to the nearest microsecond, halves away from zero")
  func rounding() {
    #expect(ReplayTime.microseconds(0) == 0)
    #expect(ReplayTime.microseconds(1.5) == 1_500_000)
    #expect(ReplayTime.microseconds(1.0 / 3) == 333_333)
    #expect(ReplayTime.microseconds(2.5e-6) == 3)
    #expect(ReplayTime.microseconds(-2.5e-6) == -3)
    #expect(ReplayTime.microseconds(0.4e-6) == 0)
  }

  @Test("values beyond Int64 clamp, NaN is 0: no input traps")
  func overflow() {
    #expect(ReplayTime.microseconds(.infinity) == .max)
    #expect(ReplayTime.microseconds(-.infinity) == .min)
    #expect(ReplayTime.microseconds(1e300) == .max)
    #expect(ReplayTime.microseconds(-1e300) == .min)
    #expect(ReplayTime.microseconds(.nan) == 0)
    // 2⁶³ µs is one past Int64.max; −2⁶³ µs is Int64.min exactly.
    #expect(ReplayTime.microseconds(0x1p63 / 1e6) == .max)
    #expect(ReplayTime.microseconds(-0x1p63 / 1e6) == .min)
    // Large values inside the range convert exactly.
    #expect(ReplayTime.microseconds(9e12) == 9_000_000_000_000_000_000)
  }

  @Test("seconds are microseconds / 1e6, as every output writes them")
  func seconds() {
    #expect(ReplayTime.seconds(1_500_000) == 1.5)
    #expect(ReplayTime.seconds(333_333) == 0.333333)
    #expect(ReplayTime(microseconds: .max).seconds == 9_223_372_036_854.775807)
    for microseconds: Int64 in [0, 1, 16_667, 33_333, 1_000_000_001] {
      #expect(ReplayTime.microseconds(ReplayTime.seconds(microseconds)) == microseconds)
    }
    #expect(ReplayTime(microseconds: 1) < ReplayTime(microseconds: 2))
  }
}
