/// One rendered glyph: an 8-bit coverage bitmap and where it sits relative to the pen.
///
/// Frames: image pixels, v down. The bitmap's top-left pixel lies at
/// (penX + `left`, baseline − `top`); `advance` moves the pen right, in 1/64 pixel (FreeType's
/// 26.6 fixed point).
public struct Glyph: Hashable, Sendable {
  /// Bitmap width in pixels.
  public var width: Int
  /// Bitmap height in pixels (rows).
  public var height: Int
  /// Horizontal offset of the bitmap's left edge from the pen, in pixels.
  public var left: Int
  /// Height of the bitmap's top row above the baseline, in pixels.
  public var top: Int
  /// Pen advance in 1/64 pixel.
  public var advance: Int
  /// `width · height` coverage values, 0 (none) … 255 (full), rows top first.
  public var coverage: [UInt8]
}
