extension PNGEncoder {
  /// The default: UP filter (SIMD) and ARSim's run-length deflate in its own PNG container
  /// (fast; what `arsim render` writes unless told).
  public static let fast = PNGEncoder()
  /// Smaller files for archiving: libpng's adaptive filter at zlib level 9 (tens of times
  /// slower to encode than `fast`; Documentation/Performance.md).
  public static let small = PNGEncoder(deflater: .zlib, compressionLevel: 9, filter: .adaptive)
}
