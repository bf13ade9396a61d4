import ARRenderCore

extension Image {
  /// Blends `color` over the pixels of the rectangle (`x`, `y`, `width`, `height`) (image
  /// pixels, origin top-left), clipped to the image; see `blend(_:coverage:u:v:)` for the rule.
  public mutating func fillRectangle(x: Int, y: Int, width: Int, height: Int, color: TextColor) {
    let u0 = max(0, x)
    let v0 = max(0, y)
    let u1 = min(self.width, x + max(0, width))
    let v1 = min(self.height, y + max(0, height))
    guard u0 < u1, v0 < v1 else { return }
    for v in v0..<v1 {
      for u in u0..<u1 { blend(color, coverage: 255, u: u, v: v) }
    }
  }

  /// Draws one line of `text` with its baseline on pixel row `baseline` and the pen starting
  /// at column `x`, clipped to the image, and returns the pen's end column.
  ///
  /// Layout: characters left to right (Unicode scalars; no shaping, which the HUD's Latin
  /// text does not need), advances and kerning accumulated in 1/64 px and each glyph placed at
  /// the rounded pen position. Each glyph pixel blends `color` with the glyph's coverage.
  /// - Throws: `TextError.freeType` when a glyph cannot be rendered.
  @discardableResult
  public mutating func drawText(
    _ text: String, font: FontFace, pixelSize: Int, x: Int, baseline: Int, color: TextColor
  ) throws(TextError) -> Int {
    var pen = x * 64
    var previous: Unicode.Scalar?
    for scalar in text.unicodeScalars {
      if let previous { pen += try font.kerning(previous, scalar, pixelSize: pixelSize) }
      let glyph = try font.glyph(scalar, pixelSize: pixelSize)
      let originU = (pen + 32) >> 6 + glyph.left
      let originV = baseline - glyph.top
      for row in 0..<glyph.height {
        let v = originV + row
        guard v >= 0, v < height else { continue }
        for column in 0..<glyph.width {
          let u = originU + column
          let coverage = glyph.coverage[row * glyph.width + column]
          guard u >= 0, u < width, coverage > 0 else { continue }
          blend(color, coverage: coverage, u: u, v: v)
        }
      }
      pen += glyph.advance
      previous = scalar
    }
    return (pen + 32) >> 6
  }

  /// "Source over" in 8-bit sRGB-encoded values (as the renderer shades, DESIGN §3): with
  /// a = coverage · color.alpha / 255 (rounded), each colour channel becomes
  /// (color · a + old · (255 − a) + 127) / 255 and alpha becomes a + old · (255 − a) / 255.
  @inline(__always)
  mutating func blend(_ color: TextColor, coverage: UInt8, u: Int, v: Int) {
    let a = (Int(coverage) * Int(color.alpha) + 127) / 255
    guard a > 0 else { return }
    let inverse = 255 - a
    let i = (v * width + u) * 4
    pixels[i] = UInt8((Int(color.red) * a + Int(pixels[i]) * inverse + 127) / 255)
    pixels[i + 1] = UInt8((Int(color.green) * a + Int(pixels[i + 1]) * inverse + 127) / 255)
    pixels[i + 2] = UInt8((Int(color.blue) * a + Int(pixels[i + 2]) * inverse + 127) / 255)
    pixels[i + 3] = UInt8(a + (Int(pixels[i + 3]) * inverse + 127) / 255)
  }
}

extension FontFace {
  /// The width in pixels `Image.drawText` advances the pen for `text` (same rounding).
  /// - Throws: `TextError.freeType` when a glyph cannot be rendered.
  public func width(of text: String, pixelSize: Int) throws(TextError) -> Int {
    var pen = 0
    var previous: Unicode.Scalar?
    for scalar in text.unicodeScalars {
      if let previous { pen += try kerning(previous, scalar, pixelSize: pixelSize) }
      pen += try glyph(scalar, pixelSize: pixelSize).advance
      previous = scalar
    }
    return (pen + 32) >> 6
  }
}
