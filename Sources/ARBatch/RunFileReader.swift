import ARSupport

/// Reads a `run.json` (or any JSON text ARSim wrote) into a `JSONValue`, keeping the key order
/// and the number forms: an integer literal stays `.integer`, anything else `.number`, whose
/// shortest round-trip text is the text ARSim wrote. So a `run.json` read and written again
/// keeps its bytes, and a merged one is laid out exactly as a rendered one.
struct RunFileReader {
  private let bytes: [UInt8]
  private var position = 0
  private var depth = 0

  /// Parses `bytes` as one JSON value (surrounding white space allowed).
  /// - Throws: `RunFileReader.Failure` with the byte offset and what was expected.
  static func parse(_ bytes: [UInt8]) throws -> JSONValue {
    var reader = RunFileReader(bytes: bytes)
    let value = try reader.value()
    reader.skipSpace()
    guard reader.position == bytes.count else { throw reader.failure("end of the text") }
    return value
  }

  /// A syntax error at `offset`.
  struct Failure: Error {
    var offset: Int
    var expected: String
  }

  private init(bytes: [UInt8]) { self.bytes = bytes }

  private func failure(_ expected: String) -> Failure {
    Failure(offset: position, expected: expected)
  }

  private mutating func skipSpace() {
    while position < bytes.count, [0x20, 0x0a, 0x0d, 0x09].contains(bytes[position]) {
      position += 1
    }
  }

  private mutating func literal(_ text: String, _ value: JSONValue) throws -> JSONValue {
    let word = Array(text.utf8)
    guard bytes.count - position >= word.count,
      Array(bytes[position..<(position + word.count)]) == word
    else { throw failure(text) }
    position += word.count
    return value
  }

  private mutating func value() throws -> JSONValue {
    skipSpace()
    guard position < bytes.count else { throw failure("a value") }
    switch bytes[position] {
    case UInt8(ascii: "{"): return try object()
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    default: return try number()
    }
  }

  private mutating func nested<T>(_ body: (inout RunFileReader) throws -> T) throws -> T {
    depth += 1
    defer { depth -= 1 }
    guard depth <= 64 else { throw failure("at most 64 nested levels") }
    return try body(&self)
  }

  private mutating func object() throws -> JSONValue {
    try nested { reader in
      reader.position += 1
      var pairs: [(String, JSONValue)] = []
      reader.skipSpace()
      if reader.position < reader.bytes.count, reader.bytes[reader.position] == UInt8(ascii: "}") {
        reader.position += 1
        return .object(pairs)
      }
      while true {
        reader.skipSpace()
        guard reader.position < reader.bytes.count,
          reader.bytes[reader.position] == UInt8(ascii: "\"")
        else { throw reader.failure("a key") }
        let key = try reader.string()
        reader.skipSpace()
        guard reader.position < reader.bytes.count,
          reader.bytes[reader.position] == UInt8(ascii: ":")
        else { throw reader.failure("':'") }
        reader.position += 1
        pairs.append((key, try reader.value()))
        reader.skipSpace()
        guard reader.position < reader.bytes.count else { throw reader.failure("',' or '}'") }
        let next = reader.bytes[reader.position]
        reader.position += 1
        if next == UInt8(ascii: "}") { return .object(pairs) }
        guard next == UInt8(ascii: ",") else { throw reader.failure("',' or '}'") }
      }
    }
  }

  private mutating func array() throws -> JSONValue {
    try nested { reader in
      reader.position += 1
      var values: [JSONValue] = []
      reader.skipSpace()
      if reader.position < reader.bytes.count, reader.bytes[reader.position] == UInt8(ascii: "]") {
        reader.position += 1
        return .array(values)
      }
      while true {
        values.append(try reader.value())
        reader.skipSpace()
        guard reader.position < reader.bytes.count else { throw reader.failure("',' or ']'") }
        let next = reader.bytes[reader.position]
        reader.position += 1
        if next == UInt8(ascii: "]") { return .array(values) }
        guard next == UInt8(ascii: ",") else { throw reader.failure("',' or ']'") }
      }
    }
  }

  private mutating func string() throws -> String {
    position += 1
    var out: [UInt8] = []
    while position < bytes.count {
      let byte = bytes[position]
      position += 1
      switch byte {
      case UInt8(ascii: "\""):
        return String(decoding: out, as: UTF8.self)
      case UInt8(ascii: "\\"):
        guard position < bytes.count else { throw failure("an escape") }
        let escaped = bytes[position]
        position += 1
        switch escaped {
        case UInt8(ascii: "n"): out.append(0x0a)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "r"): out.append(0x0d)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0c)
        case UInt8(ascii: "u"):
          var scalar = try hex4()
          if (0xD800..<0xDC00).contains(scalar) {
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
              bytes[position + 1] == UInt8(ascii: "u")
            else { throw failure("a low surrogate") }
            position += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw failure("a low surrogate") }
            scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00)
          }
          guard let unicode = Unicode.Scalar(scalar) else { throw failure("a Unicode scalar") }
          out.append(contentsOf: Array(String(Character(unicode)).utf8))
        default: out.append(escaped)  // \" \\ \/
        }
      default:
        guard byte >= 0x20 else { throw failure("no control character in a string") }
        out.append(byte)
      }
    }
    throw failure("the end of the string")
  }

  private mutating func hex4() throws -> UInt32 {
    guard bytes.count - position >= 4 else { throw failure("4 hexadecimal digits") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let c = bytes[position]
      position += 1
      let digit: UInt32
      switch c {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
      default: throw failure("4 hexadecimal digits")
      }
      value = value << 4 | digit
    }
    return value
  }

  private mutating func number() throws -> JSONValue {
    let start = position
    var isInteger = true
    while position < bytes.count {
      let c = bytes[position]
      if c == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) {
        position += 1
      } else if c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E")
        || c == UInt8(ascii: "+")
      {
        isInteger = false
        position += 1
      } else {
        break
      }
    }
    let text = String(decoding: bytes[start..<position], as: UTF8.self)
    if isInteger, let integer = Int(text) { return .integer(integer) }
    guard !text.isEmpty, let double = Double(text), double.isFinite else {
      position = start
      throw failure("a value")
    }
    return .number(double)
  }
}

extension JSONValue {
  /// The value of `key` in an object (nil for other values or a missing key).
  subscript(key: String) -> JSONValue? {
    guard case .object(let pairs) = self else { return nil }
    return pairs.first { $0.0 == key }?.1
  }

  /// The object with `key` set to `value`: replaced in place when present, else appended.
  func setting(_ key: String, _ value: JSONValue) -> JSONValue {
    guard case .object(var pairs) = self else { return self }
    if let i = pairs.firstIndex(where: { $0.0 == key }) {
      pairs[i].1 = value
    } else {
      pairs.append((key, value))
    }
    return .object(pairs)
  }

  var integerValue: Int? {
    if case .integer(let i) = self { return i }
    return nil
  }

  var numberValue: Double? {
    switch self {
    case .integer(let i): return Double(i)
    case .number(let d): return d
    default: return nil
    }
  }

  var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }
}
