extension PNGEncoder {
  /// The default: UP filter, zlib level 1 (fast; what `arsim render` writes unless told).
  public static let fast = PNGEncoder()
  /// Smaller files for archiving: libpng's adaptive filter at zlib level 9 (several times
  /// slower to encode).
  public static let small = PNGEncoder(compressionLevel: 9, filter: .adaptive)
}
