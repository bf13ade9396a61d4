/// Text made safe for HTML: every string that comes from a file (scene names, event
/// messages, paths) passes through here before it reaches the page.
enum HTMLText {
  /// `text` with `&`, `<`, `>`, `"` and `'` replaced by character references, valid in element
  /// content and in quoted attribute values alike.
  static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default:
        // Control characters other than tab and newline could confuse a terminal copy of
        // the page; they are shown as U+FFFD.
        if scalar.value < 0x20, scalar != "\t", scalar != "\n" {
          out += "\u{FFFD}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }

  /// A relative URL path: each `/`-separated component percent-encoded except unreserved
  /// characters (RFC 3986 §2.3), so a folder named `a"b` or `x?y` stays a path.
  static func path(_ components: [String]) -> String {
    components.filter { !$0.isEmpty }.map { component in
      var out = ""
      for byte in component.utf8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
          UInt8(ascii: "_"), UInt8(ascii: "~"):
          out.unicodeScalars.append(Unicode.Scalar(byte))
        default:
          let hex = Array("0123456789ABCDEF".unicodeScalars)
          out += "%"
          out.unicodeScalars.append(hex[Int(byte >> 4)])
          out.unicodeScalars.append(hex[Int(byte & 15)])
        }
      }
      return out
    }.joined(separator: "/")
  }

  /// `x` with `digits` decimals (no locale), e.g. `1.250`; from 2⁶² on (no τ or pixel of a
  /// real run, but a file can hold one) its shortest decimal form, e.g. `1e+20`.
  static func number(_ x: Double, _ digits: Int = 3) -> String {
    guard x.isFinite else { return "–" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(x) * scale).rounded()
    guard scaled < 0x1p62 else { return x.description }
    let whole = Int(scaled / scale)
    var fraction = String(Int(scaled - Double(whole) * scale))
    fraction = String(repeating: "0", count: max(0, digits - fraction.count)) + fraction
    let sign = x < 0 && scaled > 0 ? "-" : ""
    return digits == 0 ? sign + String(whole) : sign + String(whole) + "." + fraction
  }
}
