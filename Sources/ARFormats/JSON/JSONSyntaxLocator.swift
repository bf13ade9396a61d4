import ARSupport

/// Finds where JSON text first goes wrong, because Foundation's `JSONDecoder` only says "The
/// given data was not valid JSON." with no position.
///
/// A single pass over the bytes (RFC 8259 grammar, UTF-8 checked as Swift's `String` does) with
/// an explicit stack, so nesting depth costs heap, not the call stack.
package enum JSONSyntaxLocator {
  /// The first problem: 1-based line and column (in bytes), 0-based byte offset, the dotted
  /// path of the value being read (`output.fps`, `lights[1]`; nil at the top level) and what
  /// was wrong.
  package struct Problem: Hashable {
    package var line: Int
    package var column: Int
    package var byteOffset: Int
    package var field: String?
    package var reason: String
  }

  /// The deepest nesting accepted (Foundation's JSON parser refuses deeper input too).
  package static let maximumDepth = 512

  private enum Container {
    case object(key: String?)
    case array(index: Int)
  }

  /// The first syntax problem of `bytes`, or nil when they are one valid JSON value (numbers
  /// that overflow a `Double`, or that are not zero but round to it, count as problems, as
  /// `JSONDecoder` rejects them). With
  /// `rejectingDuplicateKeys`, a key that appears twice in one object is a problem too
  /// (RFC 8259 leaves the result to the parser; Foundation silently keeps one).
  /// - Complexity: O(n) in the byte count.
  package static func firstProblem(in bytes: [UInt8], rejectingDuplicateKeys: Bool = false)
    -> Problem?
  {
    var scanner = Scanner(bytes: bytes)
    scanner.rejectsDuplicateKeys = rejectingDuplicateKeys
    return scanner.run()
  }

  /// The 1-based line where the value at the dotted path `field` (`output.fps`,
  /// `nodes[0].geometry`) starts, else where its nearest enclosing value starts; nil when not
  /// even the first component is present. Used to give schema errors a line.
  /// - Complexity: O(n · components) in the byte count.
  package static func line(ofField field: String, in bytes: [UInt8]) -> Int? {
    var target = field
    while !target.isEmpty {
      var scanner = Scanner(bytes: bytes)
      scanner.target = target
      if let found = scanner.run(), found.reason == Scanner.foundReason { return found.line }
      guard let cut = target.lastIndex(where: { $0 == "." || $0 == "[" }) else { return nil }
      target = String(target[..<cut])
    }
    return nil
  }

  /// The number literal written at the dotted path `field`, exactly as in the file
  /// (`1000000000000000000`, not `1e+18`); nil when the field is missing or not a number.
  static func numberText(ofField field: String, in bytes: [UInt8]) -> String? {
    var scanner = Scanner(bytes: bytes)
    scanner.target = field
    guard let found = scanner.run(), found.reason == Scanner.foundReason else { return nil }
    let numberBytes = Set("+-.eE0123456789".utf8)
    var end = found.byteOffset
    while end < bytes.count, numberBytes.contains(bytes[end]) { end += 1 }
    guard end > found.byteOffset else { return nil }
    return String(decoding: bytes[found.byteOffset..<end], as: UTF8.self)
  }

  private struct Scanner {
    static let foundReason = "found"
    let bytes: [UInt8]
    var target: String?
    var i = 0
    var line = 1
    var lineStart = 0
    var stack: [Container] = []
    var rejectsDuplicateKeys = false
    /// The keys seen so far in each open object, innermost last (with `rejectsDuplicateKeys`).
    var objectKeys: [Set<String>] = []

    init(bytes: [UInt8]) { self.bytes = bytes }

    var path: String? {
      var out = ""
      for c in stack {
        switch c {
        case .object(let key?): out += (out.isEmpty ? "" : ".") + key
        case .object(nil): break
        case .array(let index): out += "[\(index)]"
        }
      }
      if out.utf8.count > 120 { out = "…" + String(out.suffix(100)) }
      return out.isEmpty ? nil : out
    }

    func problem(_ reason: String, at offset: Int? = nil) -> Problem {
      let o = offset ?? i
      return Problem(
        line: line, column: o - lineStart + 1, byteOffset: o, field: path, reason: reason)
    }

    func shown(_ b: UInt8) -> String {
      (0x21...0x7E).contains(b) ? "'\(Character(UnicodeScalar(b)))'" : "byte 0x\(hex(b))"
    }

    func hex(_ b: UInt8) -> String {
      let digits = Array("0123456789ABCDEF")
      return String([digits[Int(b >> 4)], digits[Int(b & 15)]])
    }

    mutating func skipWhitespace() {
      while i < bytes.count {
        switch bytes[i] {
        case 0x20, 0x09, 0x0D: i += 1
        case 0x0A:
          i += 1
          line += 1
          lineStart = i
        default: return
        }
      }
    }

    /// Scans one value; containers push onto the stack and are closed by `run`.
    mutating func run() -> Problem? {
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
      skipWhitespace()
      if i == bytes.count { return problem("the file is empty (no JSON value)") }
      while true {
        if let p = value() { return p }
        // After a value: close containers or move to the next element.
        while true {
          skipWhitespace()
          guard let top = stack.last else {
            if i < bytes.count { return problem("unexpected \(shown(bytes[i])) after the value") }
            return nil
          }
          guard i < bytes.count else { return problem("the text ends inside a container") }
          let b = bytes[i]
          switch (top, b) {
          case (.object, UInt8(ascii: "}")):
            i += 1
            stack.removeLast()
            if rejectsDuplicateKeys { objectKeys.removeLast() }
            continue
          case (.array, UInt8(ascii: "]")):
            i += 1
            stack.removeLast()
            continue
          case (.object, UInt8(ascii: ",")):
            i += 1
            stack[stack.count - 1] = .object(key: nil)
            if let p = key() { return p }
          case (.array(let index), UInt8(ascii: ",")):
            i += 1
            stack[stack.count - 1] = .array(index: index + 1)
          default:
            let close = if case .object = top { "'}'" } else { "']'" }
            return problem("expected ',' or \(close), found \(shown(b))")
          }
          break
        }
      }
    }

    /// Reads `"key" :` inside an object and records the key.
    mutating func key() -> Problem? {
      skipWhitespace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
        return problem(
          i < bytes.count
            ? "expected a quoted key, found \(shown(bytes[i]))" : "the text ends inside an object")
      }
      let start = i
      if let p = string() { return p }
      let key = String(decoding: bytes[(start + 1)..<(i - 1)], as: UTF8.self)
      stack[stack.count - 1] = .object(key: key)
      if rejectsDuplicateKeys {
        guard objectKeys[objectKeys.count - 1].insert(key).inserted else {
          return problem("key \(InputText.quoted(key)) appears twice in one object", at: start)
        }
      }
      skipWhitespace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
        return problem("expected ':' after key \(InputText.quoted(key))")
      }
      i += 1
      return nil
    }

    /// Reads a scalar, or opens a container and reads up to its first value.
    mutating func value() -> Problem? {
      while true {
        skipWhitespace()
        guard i < bytes.count else { return problem("the text ends where a value was expected") }
        if let target, path == target { return problem(Self.foundReason) }
        guard stack.count < maximumDepth else {
          return problem("nested deeper than \(maximumDepth) levels")
        }
        switch bytes[i] {
        case UInt8(ascii: "{"):
          i += 1
          stack.append(.object(key: nil))
          skipWhitespace()
          if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
            i += 1
            stack.removeLast()
            return nil
          }
          if rejectsDuplicateKeys { objectKeys.append([]) }
          if let p = key() { return p }
        case UInt8(ascii: "["):
          i += 1
          stack.append(.array(index: 0))
          skipWhitespace()
          if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
            i += 1
            stack.removeLast()
            return nil
          }
        case UInt8(ascii: "\""): return string()
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default: return problem("expected a value, found \(shown(bytes[i]))")
        }
      }
    }

    mutating func literal(_ word: String) -> Problem? {
      let w = Array(word.utf8)
      guard bytes[i...].starts(with: w) else { return problem("expected '\(word)'") }
      i += w.count
      return nil
    }

    mutating func number() -> Problem? {
      let start = i
      func digits() -> Int {
        let s = i
        while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) {
          i += 1
        }
        return i - s
      }
      if bytes[i] == UInt8(ascii: "-") { i += 1 }
      guard digits() > 0 else { return problem("malformed number", at: start) }
      if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
        i += 1
        guard digits() > 0 else { return problem("malformed number", at: start) }
      }
      if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
        i += 1
        if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
          i += 1
        }
        guard digits() > 0 else { return problem("malformed number", at: start) }
      }
      let text = String(decoding: bytes[start..<i], as: UTF8.self)
      guard let value = Double(text), value.isFinite else {
        return problem("number \(InputText.quoted(text)) is out of range", at: start)
      }
      // A non-zero literal that rounds to zero (1e-400): `JSONDecoder` rejects it too.
      let significand = text.prefix { $0 != "e" && $0 != "E" }
      if value == 0, significand.contains(where: { ("1"..."9").contains($0) }) {
        return problem(
          "number \(InputText.quoted(text)) is out of range (too small: it rounds to 0)", at: start)
      }
      return nil
    }

    /// Reads a string from its opening quote past its closing quote, checking escapes,
    /// control characters and UTF-8.
    mutating func string() -> Problem? {
      let start = i
      i += 1
      while i < bytes.count {
        let b = bytes[i]
        switch b {
        case UInt8(ascii: "\""):
          i += 1
          return nil
        case UInt8(ascii: "\\"):
          guard i + 1 < bytes.count else { return problem("unterminated string", at: start) }
          let e = bytes[i + 1]
          if Array("\"\\/bfnrt".utf8).contains(e) {
            i += 2
          } else if e == UInt8(ascii: "u") {
            let hexDigits = bytes.dropFirst(i + 2).prefix(4)
            guard hexDigits.count == 4, hexDigits.allSatisfy({ isHexDigit($0) }) else {
              return problem("bad \\u escape in a string")
            }
            // A UTF-16 surrogate must come as a high-low pair: alone it is no character, and
            // Foundation's readers disagree on it (one refuses the text, one accepts it).
            let unit = codeUnit(at: i + 2)
            if (0xDC00...0xDFFF).contains(unit) {
              return problem("unpaired UTF-16 surrogate \\u\(hexText(at: i + 2)) in a string")
            }
            if (0xD800...0xDBFF).contains(unit) {
              let low =
                i + 11 < bytes.count && bytes[i + 6] == UInt8(ascii: "\\")
                  && bytes[i + 7] == UInt8(ascii: "u")
                  && bytes[(i + 8)..<(i + 12)].allSatisfy({ isHexDigit($0) })
                ? codeUnit(at: i + 8) : 0
              guard (0xDC00...0xDFFF).contains(low) else {
                return problem("unpaired UTF-16 surrogate \\u\(hexText(at: i + 2)) in a string")
              }
              i += 6
            }
            i += 6
          } else {
            return problem("bad escape '\\\(String(decoding: [e], as: UTF8.self))' in a string")
          }
        case 0..<0x20:
          return problem("control character 0x\(hex(b)) inside a string")
        case 0x80...:
          let length = utf8SequenceLength(at: i)
          guard length > 0 else { return problem("invalid UTF-8 (byte 0x\(hex(b)))") }
          i += length
        default:
          i += 1
        }
      }
      return problem("unterminated string", at: start)
    }

    /// The value of the four hex digits at `index` (checked by the caller).
    func codeUnit(at index: Int) -> Int {
      bytes[index..<(index + 4)].reduce(0) { value, b in
        let digit = b <= 0x39 ? Int(b) - 0x30 : Int(b | 0x20) - 0x61 + 10
        return value * 16 + digit
      }
    }

    /// The four hex digits at `index` as written.
    func hexText(at index: Int) -> String {
      String(decoding: bytes[index..<(index + 4)], as: UTF8.self)
    }

    func isHexDigit(_ b: UInt8) -> Bool {
      (0x30...0x39).contains(b) || (0x41...0x46).contains(b) || (0x61...0x66).contains(b)
    }

    /// The length of the well-formed UTF-8 sequence at `index`, or 0.
    func utf8SequenceLength(at index: Int) -> Int {
      let b = bytes[index]
      let (length, low, high): (Int, UInt8, UInt8)
      switch b {
      case 0xC2...0xDF: (length, low, high) = (2, 0x80, 0xBF)
      case 0xE0: (length, low, high) = (3, 0xA0, 0xBF)
      case 0xE1...0xEC, 0xEE...0xEF: (length, low, high) = (3, 0x80, 0xBF)
      case 0xED: (length, low, high) = (3, 0x80, 0x9F)
      case 0xF0: (length, low, high) = (4, 0x90, 0xBF)
      case 0xF1...0xF3: (length, low, high) = (4, 0x80, 0xBF)
      case 0xF4: (length, low, high) = (4, 0x80, 0x8F)
      default: return 0
      }
      guard index + length <= bytes.count, (low...high).contains(bytes[index + 1]) else {
        return 0
      }
      for k in 2..<length where !(0x80...0xBF).contains(bytes[index + k]) { return 0 }
      return length
    }
  }
}
