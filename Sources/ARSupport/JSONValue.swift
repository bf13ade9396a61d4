/// A JSON value with ordered object keys, so output files are byte-stable (DESIGN §7).
///
/// Numbers print as Swift's shortest round-trip `Double` text (`0.1`, `40.0` prints as `40`
/// only for `.integer`); non-finite numbers, which JSON cannot hold, print as `null`.
public enum JSONValue: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
  case null
  case bool(Bool)
  case integer(Int)
  /// An unsigned 64-bit integer, written in full (wire sequence numbers reach 2⁶⁴ − 1).
  case unsigned(UInt64)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  /// Creates a string value from a literal.
  public init(stringLiteral value: String) { self = .string(value) }
  /// Creates a integer value from a literal.
  public init(integerLiteral value: Int) { self = .integer(value) }
  /// Creates a float value from a literal.
  public init(floatLiteral value: Double) { self = .number(value) }
  /// Creates a boolean value from a literal.
  public init(booleanLiteral value: Bool) { self = .bool(value) }

  /// An array of numbers.
  public static func numbers(_ values: [Double]) -> JSONValue { .array(values.map { .number($0) }) }

  /// Compact JSON text (no spaces, no newline).
  public var text: String {
    var out = JSONWriter()
    write(to: &out)
    return out.text
  }

  /// Appends compact JSON text to `out`.
  public func write(to out: inout String) { out += text }

  /// Appends compact JSON text to `out` as UTF-8 bytes (the bytes of `text`).
  package func write(to out: inout JSONWriter) {
    switch self {
    case .null: out.raw("null")
    case .bool(let b): b ? out.raw("true") : out.raw("false")
    case .integer(let i): out.integer(i)
    case .unsigned(let u): out.unsigned(u)
    case .number(let d): out.number(d)
    case .string(let s): out.string(s)
    case .array(let values):
      out.byte(UInt8(ascii: "["))
      for (i, v) in values.enumerated() {
        if i > 0 { out.byte(UInt8(ascii: ",")) }
        v.write(to: &out)
      }
      out.byte(UInt8(ascii: "]"))
    case .object(let pairs):
      out.byte(UInt8(ascii: "{"))
      for (i, (k, v)) in pairs.enumerated() {
        if i > 0 { out.byte(UInt8(ascii: ",")) }
        out.string(k)
        out.byte(UInt8(ascii: ":"))
        v.write(to: &out)
      }
      out.byte(UInt8(ascii: "}"))
    }
  }

  /// Equal when the compact JSON texts are equal.
  public static func == (a: JSONValue, b: JSONValue) -> Bool { a.text == b.text }
  /// Hashes the compact JSON text.
  public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}
