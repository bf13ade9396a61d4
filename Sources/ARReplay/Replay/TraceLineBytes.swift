import ARMath
import ARSupport

/// The byte buffer a trace line is written into: one allocation, kept from frame to frame by
/// the frame loop, written through a pointer after one capacity check per piece (a node, a
/// number) instead of `Array.append`'s checks on every byte run.
///
/// Numbers print as `JSONWriter.number(_:)` prints them: Swift's shortest round-trip text
/// (the text of `"\(d)"`, here from `ShortestDigits`), `0.0` for both zeros, `null` when not
/// finite.
/// Strings are escaped as `JSONWriter.string(_:)` escapes them.
///
/// A value type over storage it does not free by itself: whoever makes one calls
/// `deallocate()` once, and copies must not outlive that (the frame loop and `TraceLine.make`
/// keep one each, passed `inout`).
struct TraceLineBytes {
  /// The bytes written so far: `base[0 ..< count]`.
  private(set) var base: UnsafeMutablePointer<UInt8>
  /// Bytes written.
  private(set) var count = 0
  /// Bytes allocated at `base`.
  private(set) var capacity: Int

  /// The longest text a finite `Double` prints as (`-2.2250738585072014e-308`: 24 bytes),
  /// rounded up.
  static let numberBytes = 32

  /// An empty buffer with room for `capacity` bytes (at least 64).
  init(capacity: Int = 4096) {
    self.capacity = max(64, capacity)
    base = .allocate(capacity: self.capacity)
  }

  /// Frees the storage; the buffer must not be used afterwards.
  func deallocate() { base.deallocate() }

  /// Empties the buffer, keeping its storage.
  mutating func removeAll() { count = 0 }

  /// The text written so far (one copy).
  var text: String {
    String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
  }

  /// Makes room for `extra` more bytes (doubling, so that a growing line is copied O(log n)
  /// times).
  @inline(__always)
  mutating func reserve(_ extra: Int) {
    if count + extra > capacity { grow(count + extra) }
  }

  private mutating func grow(_ needed: Int) {
    let newCapacity = max(needed, capacity * 2)
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBase.update(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  // MARK: Unchecked writes (after `reserve`)

  /// Appends `text`'s bytes; the caller reserved room.
  @inline(__always)
  mutating func putRaw(_ text: StaticString) {
    (base + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
    count += text.utf8CodeUnitCount
  }

  /// Appends one byte; the caller reserved room.
  @inline(__always)
  mutating func putByte(_ value: UInt8) {
    base[count] = value
    count += 1
  }

  /// Appends `count` bytes from `source`; the caller reserved room.
  @inline(__always)
  mutating func putBytes(_ source: UnsafePointer<UInt8>, count n: Int) {
    (base + count).update(from: source, count: n)
    count += n
  }

  /// Appends `value` as `JSONWriter.number(_:)` does; the caller reserved `numberBytes`.
  mutating func putNumber(_ value: Double) {
    if value == 0 {
      putRaw("0.0")
    } else if !value.isFinite {
      putRaw("null")
    } else if value.magnitude < 9_007_199_254_740_992, value == value.rounded(.towardZero) {
      // A whole number below 2^53 prints as its digits and ".0" (`1.0`, `-3.0`).
      putInteger(Int(value))
      putRaw(".0")
    } else {
      count += ShortestDigits.write(value, to: base + count)
    }
  }

  /// Appends `v`'s four numbers, each followed by a comma; the caller reserved
  /// `4 * (numberBytes + 1)`.
  mutating func putNumbers(_ v: Vector4) {
    putNumber(v.x)
    putByte(UInt8(ascii: ","))
    putNumber(v.y)
    putByte(UInt8(ascii: ","))
    putNumber(v.z)
    putByte(UInt8(ascii: ","))
    putNumber(v.w)
    putByte(UInt8(ascii: ","))
  }

  /// Overwrites the last byte written (a trailing comma) with `value`.
  mutating func replaceLast(with value: UInt8) {
    precondition(count > 0)
    base[count - 1] = value
  }

  /// Appends `value` in decimal, as `String(value)`; the caller reserved 20 bytes.
  mutating func putInteger(_ value: Int) {
    if value < 0 { putByte(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    var digits = 1
    var bound: UInt = 10
    while digits < 20, magnitude >= bound {
      digits += 1
      bound &*= 10
    }
    var end = count + digits
    count = end
    repeat {
      end -= 1
      base[end] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
      magnitude /= 10
    } while magnitude != 0
  }

  // MARK: Checked writes

  /// Appends `text`'s bytes.
  mutating func raw(_ text: StaticString) {
    reserve(text.utf8CodeUnitCount)
    putRaw(text)
  }

  /// Appends one byte.
  mutating func byte(_ value: UInt8) {
    reserve(1)
    putByte(value)
  }

  /// Appends `value` as `JSONWriter.number(_:)` does.
  mutating func number(_ value: Double) {
    reserve(Self.numberBytes)
    putNumber(value)
  }

  /// Appends `value` in decimal, as `String(value)`.
  mutating func integer(_ value: Int) {
    reserve(20)
    putInteger(value)
  }

  /// Appends the bytes `writer` holds.
  mutating func append(_ writer: JSONWriter) {
    writer.bytes.withUnsafeBufferPointer { bytes in
      guard let source = bytes.baseAddress else { return }
      reserve(bytes.count)
      putBytes(source, count: bytes.count)
    }
  }

  /// Appends `value` as a quoted JSON string, escaped as `JSONWriter.string(_:)` escapes it:
  /// `"` `\` newline, carriage return and tab as two-character escapes, other control
  /// characters below U+0020 as `\u00xx` (lowercase hex), everything else as its UTF-8 bytes.
  mutating func string(_ value: String) {
    var value = value
    value.withUTF8 { units in
      // At most six bytes per unit (`\u001f`) and the quotes.
      reserve(units.count * 6 + 2)
      putByte(UInt8(ascii: "\""))
      for unit in units {
        switch unit {
        case UInt8(ascii: "\""): putRaw("\\\"")
        case UInt8(ascii: "\\"): putRaw("\\\\")
        case UInt8(ascii: "\n"): putRaw("\\n")
        case UInt8(ascii: "\r"): putRaw("\\r")
        case UInt8(ascii: "\t"): putRaw("\\t")
        case 0..<0x20:
          putRaw("\\u00")
          putByte(Self.hexDigit(unit >> 4))
          putByte(Self.hexDigit(unit & 0xF))
        default: putByte(unit)
        }
      }
      putByte(UInt8(ascii: "\""))
    }
  }

  /// The lowercase hex digit of `nibble` (0…15), as `String(_:radix: 16)` prints it.
  private static func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
  }
}
