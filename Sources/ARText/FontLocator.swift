/// Finds the font ARSim draws on-screen text with, at run time.
///
/// Order: the `ARSIM_HUD_FONT` environment variable (a TrueType/OpenType file), then DejaVu
/// Sans where Debian's `fonts-dejavu-core` installs it, then where other distributions do. The
/// first existing file wins; nothing is cached, so a test can point the variable elsewhere.
public enum FontLocator {
  /// The environment variable that names a font file explicitly.
  public static let environmentVariable = "ARSIM_HUD_FONT"

  /// Where DejaVu Sans lives: Debian/Ubuntu (`fonts-dejavu-core`), Fedora, Arch.
  public static let knownPaths = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
  ]

  /// The font file to use.
  /// - Parameters:
  ///   - environment: the process environment (`ProcessInfo` or a test's own dictionary).
  ///   - exists: whether a path names an existing file (a test may substitute it).
  /// - Throws: `TextError.namedFontMissing` when `ARSIM_HUD_FONT` names a missing file,
  ///   `TextError.fontNotFound` listing the DejaVu paths tried otherwise.
  public static func fontPath(
    environment: [String: String], exists: (String) -> Bool
  ) throws(TextError) -> String {
    if let explicit = environment[environmentVariable], !explicit.isEmpty {
      // An explicit choice that is missing is an error, not a silent fallback.
      guard exists(explicit) else { throw .namedFontMissing(path: explicit) }
      return explicit
    }
    guard let found = knownPaths.first(where: exists) else {
      throw .fontNotFound(searched: knownPaths)
    }
    return found
  }
}
