/// Quoting and number parsing for input text that may be hostile: error messages quote at most
/// a short, printable excerpt of it, and numbers never stop at an embedded NUL.
public enum InputText {
  /// The most characters of input an error message quotes.
  public static let excerptLimit = 40

  /// `text` quoted for an error message: in single quotes, at most `limit` characters, control
  /// characters (and DEL, and the Unicode line/paragraph separators) escaped as `\n`, `\t`,
  /// `\r`, `\0` or `\u{1B}`, and a cut marked `…(N characters)` with the full length, so a
  /// password, a 60 KB token or a 10 000-character name is never echoed whole.
  public static func quoted(_ text: some StringProtocol, limit: Int = excerptLimit) -> String {
    var out = "'"
    var shown = 0
    var total = 0
    for character in text {
      total += 1
      guard shown < limit else { continue }
      shown += 1
      out += escaped(character)
    }
    out += "'"
    if total > shown { out += "…(\(total) characters)" }
    return out
  }

  /// The most characters of a file path a message quotes (Linux's PATH_MAX): paths are shown
  /// whole, but escaped.
  public static let pathLimit = 4096

  /// `path` quoted for a message: `quoted(path, limit: pathLimit)`.
  public static func quotedPath(_ path: some StringProtocol) -> String {
    quoted(path, limit: pathLimit)
  }

  /// `text` with its control characters escaped as `quoted` escapes them, whole and without
  /// quotes; with `keepingNewlines`, `\n` stays a line break (for multi-line messages, whose
  /// quoted parts are already escaped). What `arsim` writes on standard error passes through
  /// it, so no raw control byte of an input reaches a terminal.
  public static func escaped(_ text: some StringProtocol, keepingNewlines: Bool = false) -> String {
    var out = ""
    for character in text {
      if keepingNewlines, character == "\n" {
        out += "\n"
      } else {
        out += escaped(character)
      }
    }
    return out
  }

  private static func escaped(_ character: Character) -> String {
    var out = ""
    for scalar in character.unicodeScalars {
      switch scalar.value {
      case 0x0A: out += "\\n"
      case 0x09: out += "\\t"
      case 0x0D: out += "\\r"
      case 0x00: out += "\\0"
      case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0xFEFF:
        out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// Whether `text` holds a NUL character, which C calls (`open`, `strtod`) take as the end of
  /// the string: `"track.txt\0/../x"` would open `track.txt`, `"300.0\0junk"` parse as 300.
  public static func containsNUL(_ text: some StringProtocol) -> Bool {
    text.utf8.contains(0)
  }

  /// `Double(text)`, but nil when `text` contains a NUL (Swift's parser hands the text to
  /// `strtod` as a C string, which stops at the NUL and accepts the prefix).
  public static func double(_ text: some StringProtocol) -> Double? {
    guard !containsNUL(text) else { return nil }
    return Double(String(text))
  }
}
