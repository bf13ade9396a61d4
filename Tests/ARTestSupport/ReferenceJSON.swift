import ARSupport

/// The `String` writer `JSONValue` used before `JSONWriter` (commit cebb495), kept as the
/// oracle that every JSON output is compared with: the bytes must not change (DESIGN §7).
public enum ReferenceJSON {
  /// `value` as JSON text, written as the old writer did.
  public static func text(_ value: JSONValue) -> String {
    var out = ""
    write(value, to: &out)
    return out
  }

  private static func write(_ value: JSONValue, to out: inout String) {
    switch value {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .integer(let i): out += String(i)
    case .unsigned(let u): out += String(u)
    case .number(let d): out += d.isFinite ? (d == 0 ? "0.0" : "\(d)") : "null"
    case .string(let s): writeString(s, to: &out)
    case .array(let values):
      out += "["
      for (i, v) in values.enumerated() {
        if i > 0 { out += "," }
        write(v, to: &out)
      }
      out += "]"
    case .object(let pairs):
      out += "{"
      for (i, (k, v)) in pairs.enumerated() {
        if i > 0 { out += "," }
        writeString(k, to: &out)
        out += ":"
        write(v, to: &out)
      }
      out += "}"
    }
  }

  private static func writeString(_ s: String, to out: inout String) {
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
}
