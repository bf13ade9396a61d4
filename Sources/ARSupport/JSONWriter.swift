/// Compact JSON text built directly as UTF-8 bytes, with the exact bytes of `JSONValue.text`
/// (DESIGN §7) but without a `String` per number or per append.
///
/// Numbers go through Swift's own shortest round-trip printer (`Double.write(to:)`, the text of
/// `"\(d)"`) straight into the buffer; see `number(_:)` for zero and non-finite values.
package struct JSONWriter: TextOutputStream {
  /// The UTF-8 text written so far.
  package private(set) var bytes: [UInt8] = []

  /// Creates an empty writer with room for `capacity` bytes.
  package init(capacity: Int = 0) {
    bytes.reserveCapacity(capacity)
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
    } else {
      value.write(to: &self)
    }
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
