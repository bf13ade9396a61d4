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
    var out = ""
    write(to: &out)
    return out
  }

  /// Appends compact JSON text to `out`.
  public func write(to out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .integer(let i): out += String(i)
    case .number(let d): out += d.isFinite ? Self.format(d) : "null"
    case .string(let s): Self.writeString(s, to: &out)
    case .array(let values):
      out += "["
      for (i, v) in values.enumerated() {
        if i > 0 { out += "," }
        v.write(to: &out)
      }
      out += "]"
    case .object(let pairs):
      out += "{"
      for (i, (k, v)) in pairs.enumerated() {
        if i > 0 { out += "," }
        Self.writeString(k, to: &out)
        out += ":"
        v.write(to: &out)
      }
      out += "}"
    }
  }

  /// Shortest round-trip text; integral values keep Swift's `.0` (e.g. `40.0`), `-0.0` → `0.0`.
  static func format(_ d: Double) -> String { d == 0 ? "0.0" : "\(d)" }

  static func writeString(_ s: String, to out: inout String) {
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }

  /// Equal when the compact JSON texts are equal.
  public static func == (a: JSONValue, b: JSONValue) -> Bool { a.text == b.text }
  /// Hashes the compact JSON text.
  public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}
