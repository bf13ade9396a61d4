import ARRender
import ARText
import Foundation
import Testing

/// FreeType through ARText, against numbers from DejaVu Sans's design (2048 units per em,
/// ascender 1901, descender 483, cap height 1493: the Bitstream Vera metrics it inherits) and
/// blending computed by hand.
@Suite struct TextRenderingTests {
  static func font() throws -> FontFace {
    let path = try FontLocator.fontPath(
      environment: ProcessInfo.processInfo.environment,
      exists: { FileManager.default.fileExists(atPath: $0) })
    return try FontFace(path: path)
  }

  @Test("the font is DejaVu Sans, with its and FreeType's versions readable")
  func versions() throws {
    let font = try Self.font()
    #expect(font.familyName == "DejaVu Sans")
    #expect(font.fontVersion.hasPrefix("Version "))
    #expect(font.freeTypeVersion.split(separator: ".").count == 3)
  }

  @Test("line metrics at 64 px are the design's scaled and rounded up")
  func metrics() throws {
    let metrics = try Self.font().lineMetrics(pixelSize: 64)
    // 1901 · 64 / 2048 = 59.4 → 60; 483 · 64 / 2048 = 15.1 → 16.
    #expect(metrics.ascender == 60)
    #expect(metrics.descender == 16)
  }

  @Test("a capital I inks the cap height: 1493 · 64 / 2048 = 46.7 px of full coverage")
  func capitalI() throws {
    var image = Image(width: 64, height: 80, fill: (255, 255, 255, 255))
    try image.drawText(
      "I", font: try Self.font(), pixelSize: 64, x: 10, baseline: 70, color: .black)
    // Ink per row: a row is inked when any pixel is darker than white.
    var inkedRows: [Int] = []
    var darkest = 255
    for v in 0..<80 {
      var row = 255
      for u in 0..<64 { row = min(row, Int(image[u, v].r)) }
      if row < 255 { inkedRows.append(v) }
      darkest = min(darkest, row)
    }
    #expect(darkest == 0)  // full coverage inside the stem
    // Rows 70 − 46.7 = 23.3 … 69: 47 rows (the top one partly covered).
    #expect(inkedRows.first == 23)
    #expect(inkedRows.last == 69)
    // Sum of coverage down the stem's centre column: 46.66 px · 255 within a pixel.
    var firstFull = 0
    for u in (0..<64).reversed() where (0..<80).contains(where: { image[u, $0].r == 0 }) {
      firstFull = u
    }
    var coverage = 0.0
    for v in 0..<80 { coverage += Double(255 - Int(image[firstFull + 2, v].r)) }
    #expect(abs(coverage / 255 - 1493.0 * 64 / 2048) < 1)
  }

  @Test("widths add up as drawn, and kerning tightens A·V")
  func widths() throws {
    let font = try Self.font()
    let h = try font.width(of: "H", pixelSize: 32)
    // DejaVu's H advances 1540 units: 1540 · 32 / 2048 = 24.06 px.
    #expect(h == 24)
    #expect(try font.width(of: "HHHH", pixelSize: 32) == 96)
    let kerned = try font.width(of: "AV", pixelSize: 32)
    let separate = try font.width(of: "A", pixelSize: 32) + font.width(of: "V", pixelSize: 32)
    #expect(kerned < separate)
    var image = Image(width: 200, height: 40)
    let end = try image.drawText(
      "Status: READY", font: font, pixelSize: 16, x: 5, baseline: 30, color: .white)
    #expect(end == 5 + (try font.width(of: "Status: READY", pixelSize: 16)))
  }

  @Test("text clipped by the image edges draws what fits and does not trap")
  func clipping() throws {
    var image = Image(width: 8, height: 8)
    try image.drawText(
      "Wg", font: try Self.font(), pixelSize: 40, x: -10, baseline: 4, color: .white)
    #expect((0..<64).contains { image.pixels[$0 * 4] != 0 })
  }

  @Test("blending: 50 % white over black is 128, coverage scales the alpha")
  func blending() {
    var image = Image(width: 4, height: 1, fill: (0, 0, 0, 255))
    image.fillRectangle(
      x: 0, y: 0, width: 2, height: 1, color: TextColor(red: 255, green: 255, blue: 255, alpha: 128)
    )
    // a = 128: (255 · 128 + 0 · 127 + 127) / 255 = 128.
    #expect(image[0, 0] == (128, 128, 128, 255))
    #expect(image[2, 0] == (0, 0, 0, 255))  // outside the rectangle
    var over = Image(width: 1, height: 1, fill: (200, 100, 0, 0))
    over.fillRectangle(
      x: -5, y: -5, width: 10, height: 10, color: TextColor(red: 0, green: 0, blue: 255, alpha: 51))
    // a = 51: R (0 · 51 + 200 · 204 + 127) / 255 = 160; B (255 · 51 + 0 + 127) / 255 = 51;
    // alpha 51 + (0 · 204 + 127) / 255 = 51.
    #expect(over[0, 0] == (160, 80, 51, 51))
  }

  @Test("a missing font names the Debian package; ARSIM_HUD_FONT is honoured, never skipped")
  func missingFont() throws {
    #expect {
      _ = try FontLocator.fontPath(environment: [:], exists: { _ in false })
    } throws: { error in
      "\(error)".contains("fonts-dejavu-core")
        && "\(error)".contains("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    }
    let chosen = try FontLocator.fontPath(
      environment: ["ARSIM_HUD_FONT": "/x/Other.ttf"], exists: { _ in true })
    #expect(chosen == "/x/Other.ttf")
    // A named font that is missing is reported as such, not as DejaVu missing at that path.
    #expect(throws: TextError.namedFontMissing(path: "/x/Missing.ttf")) {
      _ = try FontLocator.fontPath(
        environment: ["ARSIM_HUD_FONT": "/x/Missing.ttf"], exists: { $0 != "/x/Missing.ttf" })
    }
    let named = "\(TextError.namedFontMissing(path: "/x/Missing.ttf"))"
    #expect(
      named.contains("ARSIM_HUD_FONT names /x/Missing.ttf") && !named.contains("DejaVu Sans is not")
    )
    #expect(throws: TextError.self) { _ = try FontFace(path: "/nonexistent/font.ttf") }
  }
}
