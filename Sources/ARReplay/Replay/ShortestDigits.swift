/// The shortest decimal text that reads back as the same `Double`, laid out as Swift's
/// `description` lays it out (`0.1`, `40.0`, `0.0001`, `1e-05`, `2.220446049250313e-16`,
/// `9007199254740992.0`, `1e+16`), written straight into a byte buffer: the trace line's
/// numbers (`TraceLineBytes.putNumber`), ≈ 454 instructions each against ≈ 650 through
/// `Double.write(to:)` (Documentation/Performance.md, "B2's trace line").
///
/// The digits come from Ryū (Ulf Adams, PLDI 2018): the shortest digit string inside the
/// interval of decimals that round to the value, and of those the closest to it (ties to even),
/// which is what Swift's printer produces; `ShortestDigitsTests` compares the two on millions
/// of bit patterns. The layout: plain decimal for magnitudes from 10⁻⁴ up to 2⁵³ (`.0` after a
/// whole number), otherwise one digit, the others after a point, and `e`, the exponent's sign
/// and at least two digits.
enum ShortestDigits {
  /// The longest text: a sign, 17 digits, a point, `e-` and three digits.
  static let maximumBytes = 25

  /// Writes `value` (finite, not zero) at `out` and returns the number of bytes written (at most
  /// `maximumBytes`).
  static func write(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
    precondition(value.isFinite && value != 0)
    var count = 0
    if value.sign == .minus {
      out[0] = UInt8(ascii: "-")
      count = 1
    }
    let (digits, exponent) = decimal(value)
    let length = decimalLength(digits)
    // value = 0.d₁d₂… × 10^point
    let point = exponent + length
    if value.magnitude > 9_007_199_254_740_992 || point < -3 {
      // d₁.d₂…e±XX
      writeDigits(digits, length: length, to: out + count + 1)
      out[count] = out[count + 1]
      if length > 1 {
        out[count + 1] = UInt8(ascii: ".")
        count += length + 1
      } else {
        count += 1
      }
      let e = point - 1
      out[count] = UInt8(ascii: "e")
      out[count + 1] = e < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
      count += 2
      let magnitude = e.magnitude
      if magnitude >= 100 {
        out[count] = UInt8(ascii: "0") &+ UInt8(magnitude / 100)
        count += 1
      }
      out[count] = UInt8(ascii: "0") &+ UInt8(magnitude / 10 % 10)
      out[count + 1] = UInt8(ascii: "0") &+ UInt8(magnitude % 10)
      return count + 2
    }
    if point <= 0 {
      // 0.00ddd
      out[count] = UInt8(ascii: "0")
      out[count + 1] = UInt8(ascii: ".")
      count += 2
      for _ in 0 ..< -point {
        out[count] = UInt8(ascii: "0")
        count += 1
      }
      writeDigits(digits, length: length, to: out + count)
      return count + length
    }
    if point < length {
      // ddd.ddd: the digits one place to the right of the point, then the whole part moved back.
      writeDigits(digits, length: length, to: out + count + 1)
      for i in 0..<point { out[count + i] = out[count + 1 + i] }
      out[count + point] = UInt8(ascii: ".")
      return count + length + 1
    }
    // ddd000.0
    writeDigits(digits, length: length, to: out + count)
    count += length
    for _ in 0..<(point - length) {
      out[count] = UInt8(ascii: "0")
      count += 1
    }
    out[count] = UInt8(ascii: ".")
    out[count + 1] = UInt8(ascii: "0")
    return count + 2
  }

  /// The number of decimal digits of `v` (1…17 for Ryū's outputs; most have 15–17).
  @inline(__always)
  static func decimalLength(_ v: UInt64) -> Int {
    if v >= 10_000_000_000_000_000 { return 17 }
    if v >= 1_000_000_000_000_000 { return 16 }
    if v >= 100_000_000_000_000 { return 15 }
    var length = 1
    var bound: UInt64 = 10
    while v >= bound {
      length += 1
      bound &*= 10
    }
    return length
  }

  /// "00" "01" … "99".
  private static let digitPairs: StaticString =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

  /// `v`'s `length` decimal digits at `out`, two at a time.
  @inline(__always)
  static func writeDigits(_ v: UInt64, length: Int, to out: UnsafeMutablePointer<UInt8>) {
    let pairs = digitPairs.utf8Start
    var v = v
    var i = length
    while i >= 2 {
      let (q, r) = v.quotientAndRemainder(dividingBy: 100)
      i -= 2
      out[i] = pairs[Int(r) * 2]
      out[i + 1] = pairs[Int(r) * 2 + 1]
      v = q
    }
    if i == 1 { out[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v) }
  }

  /// `(m × mul) >> j` for a 125-bit `mul` given as (low, high) and 64 < j < 128 (Ryū's
  /// `mulShift64`).
  @inline(__always)
  static func mulShift(_ m: UInt64, _ low: UInt64, _ high: UInt64, _ j: Int) -> UInt64 {
    let high0 = m.multipliedFullWidth(by: low).high
    let (high1, low1) = m.multipliedFullWidth(by: high)
    let (sum, carry) = high0.addingReportingOverflow(low1)
    let top = high1 &+ (carry ? 1 : 0)
    let shift = j - 64
    return (top << (64 - shift)) | (sum >> shift)
  }

  /// ⌈log₂ 5^e⌉ (1 for e = 0), 0 ≤ e ≤ 3528.
  @inline(__always)
  static func pow5Bits(_ e: Int) -> Int { ((e &* 1_217_359) >> 19) + 1 }

  /// ⌊log₁₀ 2^e⌋, 0 ≤ e ≤ 1650.
  @inline(__always)
  static func log10Pow2(_ e: Int) -> Int { (e &* 78913) >> 18 }

  /// ⌊log₁₀ 5^e⌋, 0 ≤ e ≤ 2620.
  @inline(__always)
  static func log10Pow5(_ e: Int) -> Int { (e &* 732_923) >> 20 }

  /// Whether 5^p divides `value`.
  static func isMultiple(ofPowerOf5 p: Int, _ value: UInt64) -> Bool {
    var value = value
    var count = 0
    while value != 0, value % 5 == 0, count < p {
      value /= 5
      count += 1
    }
    return count >= p
  }

  /// The shortest, closest digits of `value` (finite, not zero) and their power of ten:
  /// |value| ≈ digits × 10^exponent (Ryū's `d2d`).
  static func decimal(_ value: Double) -> (digits: UInt64, exponent: Int) {
    let bits = value.bitPattern
    let ieeeMantissa = bits & ((1 << 52) - 1)
    let ieeeExponent = Int((bits >> 52) & 0x7FF)
    let e2: Int
    let m2: UInt64
    if ieeeExponent == 0 {
      e2 = 1 - 1023 - 52 - 2
      m2 = ieeeMantissa
    } else {
      e2 = ieeeExponent - 1023 - 52 - 2
      m2 = (1 << 52) | ieeeMantissa
    }
    let acceptBounds = m2 & 1 == 0
    // The interval of decimals that round to the value: (4·m2 − 1 − mmShift, 4·m2 + 2) · 2^e2.
    let mv = 4 &* m2
    let mmShift: UInt64 = ieeeMantissa != 0 || ieeeExponent <= 1 ? 1 : 0

    var vr: UInt64
    var vp: UInt64
    var vm: UInt64
    var e10: Int
    var vmIsTrailingZeros = false
    var vrIsTrailingZeros = false
    if e2 >= 0 {
      let q = log10Pow2(e2) - (e2 > 3 ? 1 : 0)
      e10 = q
      let k = 125 + pow5Bits(q) - 1
      let i = -e2 + q + k
      let low = inversePowersOf5[2 * q]
      let high = inversePowersOf5[2 * q + 1]
      vr = mulShift(4 &* m2, low, high, i)
      vp = mulShift(4 &* m2 &+ 2, low, high, i)
      vm = mulShift(4 &* m2 &- 1 &- mmShift, low, high, i)
      if q <= 21 {
        if mv % 5 == 0 {
          vrIsTrailingZeros = isMultiple(ofPowerOf5: q, mv)
        } else if acceptBounds {
          vmIsTrailingZeros = isMultiple(ofPowerOf5: q, mv &- 1 &- mmShift)
        } else if isMultiple(ofPowerOf5: q, mv &+ 2) {
          vp -= 1
        }
      }
    } else {
      let q = log10Pow5(-e2) - (-e2 > 1 ? 1 : 0)
      e10 = q + e2
      let i = -e2 - q
      let k = pow5Bits(i) - 125
      let j = q - k
      let low = powersOf5[2 * i]
      let high = powersOf5[2 * i + 1]
      vr = mulShift(4 &* m2, low, high, j)
      vp = mulShift(4 &* m2 &+ 2, low, high, j)
      vm = mulShift(4 &* m2 &- 1 &- mmShift, low, high, j)
      if q <= 1 {
        vrIsTrailingZeros = true
        if acceptBounds {
          vmIsTrailingZeros = mmShift == 1
        } else {
          vp -= 1
        }
      } else if q < 63 {
        vrIsTrailingZeros = mv & ((1 << UInt64(q)) - 1) == 0
      }
    }

    var removed = 0
    var lastRemovedDigit: UInt64 = 0
    let output: UInt64
    if vmIsTrailingZeros || vrIsTrailingZeros {
      // The general case (≈ 0.7 % of values).
      while vp / 10 > vm / 10 {
        vmIsTrailingZeros = vmIsTrailingZeros && vm % 10 == 0
        vrIsTrailingZeros = vrIsTrailingZeros && lastRemovedDigit == 0
        lastRemovedDigit = vr % 10
        vr /= 10
        vp /= 10
        vm /= 10
        removed += 1
      }
      if vmIsTrailingZeros {
        while vm % 10 == 0 {
          vrIsTrailingZeros = vrIsTrailingZeros && lastRemovedDigit == 0
          lastRemovedDigit = vr % 10
          vr /= 10
          vp /= 10
          vm /= 10
          removed += 1
        }
      }
      if vrIsTrailingZeros, lastRemovedDigit == 5, vr % 2 == 0 {
        // Exactly halfway: round to even.
        lastRemovedDigit = 4
      }
      let outside = vr == vm && (!acceptBounds || !vmIsTrailingZeros)
      output = vr + (outside || lastRemovedDigit >= 5 ? 1 : 0)
    } else {
      var roundUp = false
      if vp / 100 > vm / 100 {
        roundUp = vr % 100 >= 50
        vr /= 100
        vp /= 100
        vm /= 100
        removed += 2
      }
      while vp / 10 > vm / 10 {
        roundUp = vr % 10 >= 5
        vr /= 10
        vp /= 10
        vm /= 10
        removed += 1
      }
      output = vr + (vr == vm || roundUp ? 1 : 0)
    }
    return (output, e10 + removed)
  }
}
