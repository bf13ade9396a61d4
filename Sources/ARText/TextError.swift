/// Why text could not be drawn: the font file or FreeType.
public enum TextError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No font file was found; `searched` lists the paths tried, in order.
  case fontNotFound(searched: [String])
  /// `ARSIM_HUD_FONT` names `path`, which is not an existing file (no fallback to DejaVu).
  case namedFontMissing(path: String)
  /// FreeType could not open or read the font file at `path` (FreeType error `code`).
  case unreadableFont(path: String, code: Int32)
  /// FreeType could not be initialised or could not size or render a glyph (error `code`).
  case freeType(operation: String, code: Int32)

  /// A one-line description for a terminal, naming the Debian package to install.
  public var description: String {
    switch self {
    case .fontNotFound(let searched):
      "no font for on-screen text: DejaVu Sans is not at "
        + searched.joined(separator: ", ")
        + "; install the Debian package fonts-dejavu-core (Scripts/install-dependencies) "
        + "or set ARSIM_HUD_FONT to a TrueType file"
    case .namedFontMissing(let path):
      "no font for on-screen text: ARSIM_HUD_FONT names \(path), which does not exist; "
        + "point it at a TrueType file, or unset it to use DejaVu Sans (fonts-dejavu-core)"
    case .unreadableFont(let path, let code):
      "\(path): FreeType cannot read this font (FreeType error \(code))"
    case .freeType(let operation, let code):
      "FreeType \(operation) failed (FreeType error \(code))"
    }
  }
}
