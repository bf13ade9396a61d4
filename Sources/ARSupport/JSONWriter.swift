/// Compact JSON text built directly as UTF-8 bytes, with the exact bytes of `JSONValue.text`
/// (DESIGN §7) but without a `String` per number or per append.
///
/// Numbers go through Swift's own shortest round-trip printer (`Double.write(to:)`, the text of
/// `"\(d)"`) straight into the buffer; see `number(_:)` for zero and non-finite values. A writer
/// made with `remembersNumbers` also keeps the text of the last numbers it printed (a small
/// table by bit pattern) and copies it when the same `Double` comes again, as the rotation,
/// radius and colour of every sphere of a stroke do in `trace.jsonl`.
package struct JSONWriter: TextOutputStream {
  /// The UTF-8 text written so far.
  package private(set) var bytes: [UInt8] = []
  /// Bit patterns of remembered numbers, one per slot (empty: remembering is off). Zero, the
  /// initial value, is never looked up: `number(_:)` prints zeros first.
  private var rememberedBits: [UInt64] = []
  /// Per slot, `slotSize` bytes: the text's length, then its bytes.
  private var rememberedText: [UInt8] = []
  private static let slotCount = 128
  /// `numbers4`'s slots: the last four bit patterns and their text, per slot.
  private var runBits: [SIMD4<UInt64>] = []
  private var runText: [[UInt8]?] = []
  /// Slots `numbers4` remembers (with `remembersNumbers`).
  package static let runSlotCount = 8
  /// 1 length byte + at most 24 bytes of text (`-2.2250738585072014e-308`), rounded up.
  private static let slotSize = 32

  /// Creates an empty writer with room for `capacity` bytes; `remembersNumbers` turns on the
  /// table of recently printed numbers (worth its 5 KB only for long texts).
  package init(capacity: Int = 0, remembersNumbers: Bool = false) {
    bytes.reserveCapacity(capacity)
    if remembersNumbers {
      runBits = Array(repeating: SIMD4(repeating: 0), count: Self.runSlotCount)
      runText = Array(repeating: nil, count: Self.runSlotCount)
      rememberedBits = Array(repeating: 0, count: Self.slotCount)
      rememberedText = Array(repeating: 0, count: Self.slotCount * Self.slotSize)
    }
  }

  /// The text written so far.
  package var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Appends `string`'s UTF-8 bytes unescaped (`TextOutputStream`; callers pass JSON syntax).
  package mutating func write(_ string: String) { bytes.append(contentsOf: string.utf8) }

  /// Appends ASCII bytes unescaped; `Double.write(to:)` prints through this, with no `String`.
  package mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
    bytes.append(contentsOf: buffer)
  }

  /// Appends JSON syntax or a key known to need no escaping (e.g. `"{\"frame\":"`).
  package mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// Appends one ASCII byte.
  package mutating func byte(_ value: UInt8) { bytes.append(value) }

  /// Appends `value` in decimal, as `String(value)`.
  package mutating func integer(_ value: Int) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    unsigned(UInt64(value.magnitude))
  }

  /// Appends the decimal digits of `value`.
  package mutating func unsigned(_ value: UInt64) {
    var magnitude = value
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in  // UInt.max: 20
      var start = digits.count
      repeat {
        start -= 1
        digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
        magnitude /= 10
      } while magnitude != 0
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
    }
  }

  /// Appends `value` as `JSONValue.number` prints it: Swift's shortest round-trip text (`0.1`,
  /// `40.0`, `2.220446049250313e-16`, `1e+16`), `0.0` for both zeros, `null` when not finite.
  package mutating func number(_ value: Double) {
    if value == 0 {
      raw("0.0")
    } else if !value.isFinite {
      raw("null")
    } else if rememberedBits.isEmpty {
      value.write(to: &self)
    } else {
      writeRemembering(value)
    }
  }

  /// Appends `value` as `number(_:)` does but leaves the table of remembered numbers alone: for
  /// values that seldom repeat (a sphere's translation), where a lookup would only miss.
  package mutating func unrememberedNumber(_ value: Double) {
    if value == 0 {
      raw("0.0")
    } else if !value.isFinite {
      raw("null")
    } else {
      value.write(to: &self)
    }
  }

  /// Copies `value`'s text from its slot when the slot holds the same bit pattern; otherwise
  /// prints it and stores the text in the slot.
  private mutating func writeRemembering(_ value: Double) {
    let bits = value.bitPattern
    // Fibonacci hashing: the top 7 bits of the product pick one of the 128 slots.
    let slot = Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> 57)
    let offset = slot * Self.slotSize
    if rememberedBits[slot] == bits {
      let count = Int(rememberedText[offset])
      rememberedText.withUnsafeBufferPointer {
        bytes.append(
          contentsOf: UnsafeBufferPointer(rebasing: $0[(offset + 1)..<(offset + 1 + count)]))
      }
      return
    }
    let start = bytes.count
    value.write(to: &self)
    let count = bytes.count - start
    guard count < Self.slotSize else { return }
    rememberedBits[slot] = bits
    rememberedText[offset] = UInt8(count)
    for i in 0..<count { rememberedText[offset + 1 + i] = bytes[start + i] }
  }

  /// Appends `values` as four comma-separated numbers (`number(_:)` each, no brackets), copying
  /// the text when slot `slot` (0 ..< `runSlotCount`) last held the same four bit patterns: the
  /// rotation columns and colour of consecutive stroke spheres in `trace.jsonl` repeat.
  package mutating func numbers4(_ a: Double, _ b: Double, _ c: Double, _ d: Double, slot: Int) {
    let bits = SIMD4(a.bitPattern, b.bitPattern, c.bitPattern, d.bitPattern)
    if slot < runBits.count, runBits[slot] == bits, let text = runText[slot] {
      bytes.append(contentsOf: text)
      return
    }
    let start = bytes.count
    number(a)
    byte(UInt8(ascii: ","))
    number(b)
    byte(UInt8(ascii: ","))
    number(c)
    byte(UInt8(ascii: ","))
    number(d)
    guard slot < runBits.count else { return }
    runBits[slot] = bits
    runText[slot] = Array(bytes[start...])
  }

  /// Appends `value` as a quoted JSON string: `"` `\` newline, carriage return and tab as
  /// two-character escapes, other control characters below U+0020 as `\u00xx` (lowercase hex),
  /// everything else (U+007F and non-ASCII included) as its UTF-8 bytes.
  package mutating func string(_ value: String) {
    bytes.append(UInt8(ascii: "\""))
    // Node names need no escaping: copy their bytes in one go.
    let copied: Bool? = value.utf8.withContiguousStorageIfAvailable { units in
      guard
        !units.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        )
      else { return false }
      bytes.append(contentsOf: units)
      return true
    }
    if copied == true {
      bytes.append(UInt8(ascii: "\""))
      return
    }
    for unit in value.utf8 {
      switch unit {
      case UInt8(ascii: "\""): raw("\\\"")
      case UInt8(ascii: "\\"): raw("\\\\")
      case UInt8(ascii: "\n"): raw("\\n")
      case UInt8(ascii: "\r"): raw("\\r")
      case UInt8(ascii: "\t"): raw("\\t")
      case 0..<0x20:
        raw("\\u00")
        bytes.append(Self.hexDigit(unit >> 4))
        bytes.append(Self.hexDigit(unit & 0xF))
      default: bytes.append(unit)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// The lowercase hex digit of `nibble` (0…15), as `String(_:radix: 16)` prints it.
  private static func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
  }
}
