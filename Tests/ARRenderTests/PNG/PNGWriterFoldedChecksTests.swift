import CPNGWriter
import Testing

@testable import ARRender

/// What `CPNGWriter`'s AVX2 and AVX-512 UP filters compute on the side, so that no other pass
/// reads the frame or the filtered rows again: whether every pixel is opaque (the automatic
/// layout) and the zlib stream's Adler-32. Checked against plain loops written here and against libpng.
@Suite("PNG writer: opacity and Adler-32 folded into the filter")
struct PNGWriterFoldedChecksTests {
  /// Adler-32 (RFC 1950 §8.2), byte by byte.
  static func adler32(_ bytes: [UInt8]) -> UInt32 {
    var s1: UInt32 = 1
    var s2: UInt32 = 0
    for byte in bytes {
      s1 = (s1 + UInt32(byte)) % 65521
      s2 = (s2 + s1) % 65521
    }
    return s2 << 16 | s1
  }

  /// The rows the encoder deflates for an opaque image with the UP filter: a filter-type byte 2,
  /// then RGB of the row minus RGB of the row above (zeros above the first).
  static func upFilteredRows(_ image: Image) -> [UInt8] {
    var rows: [UInt8] = []
    rows.reserveCapacity(image.height * (image.width * 3 + 1))
    for y in 0..<image.height {
      rows.append(2)
      for x in 0..<image.width {
        for c in 0..<3 {
          let i = (y * image.width + x) * 4 + c
          rows.append(image.pixels[i] &- (y > 0 ? image.pixels[i - image.width * 4] : 0))
        }
      }
    }
    return rows
  }

  /// The Adler-32 at the end of the file's zlib stream (the IDAT chunk's last 4 data bytes).
  static func storedAdler32(_ png: [UInt8]) -> UInt32 {
    let idatLength = png[33..<37].reduce(0) { $0 << 8 | Int($1) }
    let end = 41 + idatLength
    return png[(end - 4)..<end].reduce(0) { $0 << 8 | UInt32($1) }
  }

  static func random(width: Int, height: Int, seed: UInt64) -> Image {
    var generator = SeededGenerator(seed: seed)
    var image = Image(width: width, height: height)
    for i in 0..<image.pixels.count {
      image.pixels[i] = i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: generator.next())
    }
    return image
  }

  @Test("the UP filter's AND of alpha bytes, every path, widths 0…40 and 1921")
  func alphaOnEveryPath() {
    var generator = SeededGenerator(seed: 3)
    for width in Array(0...40) + [1921] {
      let current = (0..<(width * 4 + 32)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
      // Every position of one translucent pixel (or none: −1), one pixel at a time.
      for translucent in [-1] + Array(0..<width).filter({ width < 41 || $0 % 97 == 0 }) {
        var row = current
        for x in 0..<width { row[4 * x + 3] = 255 }
        if translucent >= 0 { row[4 * translucent + 3] = 0xB6 }
        for path: Int32 in 0...3 {
          var out = [UInt8](repeating: 0, count: width * 3 + 32)
          var alpha: UInt8 = 0
          let used = arsim_pngw_up_rgbx_alpha(row, nil, width, &out, path, &alpha)
          #expect(
            alpha == (translucent < 0 ? 255 : 0xB6),
            "width \(width), pixel \(translucent), path \(used)")
        }
      }
    }
  }

  @Test(
    "automatic layout: RGB when every alpha is 255, RGBA for one translucent pixel anywhere",
    arguments: [PNGEncoder.Filter.up, .sub])
  func automaticLayout(filter: PNGEncoder.Filter) throws {
    // 700 × 200: four strips of rows, so a translucent pixel in the first, a middle or the last
    // strip restarts the encode at different points.
    let opaque = PNGWriterTests.frameLike(width: 700, height: 200, opaque: true)
    for deflater in [PNGEncoder.Deflater.runLengthHuffman, .isal] {
      let options = PNGEncoder(deflater: deflater, filter: filter)
      let rgb = try opaque.pngData(options: options)
      #expect(rgb[25] == 2, "\(deflater)")
      #expect(try Image(pngData: rgb) == opaque)
      for (x, y) in [(0, 0), (350, 100), (699, 199), (5, 62)] {
        var image = opaque
        image.pixels[(y * 700 + x) * 4 + 3] = 254
        let rgba = try image.pngData(options: options)
        #expect(rgba[25] == 6, "\(deflater), pixel (\(x), \(y))")
        #expect(try Image(pngData: rgba) == image, "\(deflater), pixel (\(x), \(y))")
        // The same bytes as asking for RGBA outright: the first try left nothing behind.
        let asked = PNGEncoder(pixelFormat: .rgba8, deflater: deflater, filter: filter)
        #expect(try rgba == image.pngData(options: asked))
      }
    }
  }

  @Test(
    "the stored Adler-32 is that of the filtered rows on every filter path: widths 1…1921, noise and extremes"
  )
  func adlerOfFilteredRows() throws {
    var images: [(String, Image)] = []
    for width in [1, 7, 8, 9, 13, 15, 16, 17, 47, 64, 65, 700, 1921] {
      images.append(("noise \(width)", Self.random(width: width, height: 9, seed: UInt64(width))))
    }
    // The largest sums a row can make: UP bytes 255 (a white row below a black one) and 1.
    var extremes = Image(width: 1921, height: 6)
    for y in 0..<6 {
      for x in 0..<1921 {
        let v: UInt8 = y % 2 == 0 ? 255 : 0
        extremes.pixels.replaceSubrange(
          ((y * 1921 + x) * 4)..<((y * 1921 + x) * 4 + 4), with: [v, v, v, 255])
      }
    }
    images.append(("extremes", extremes))
    images.append(("frame-like", PNGWriterTests.frameLike(width: 700, height: 200, opaque: true)))
    // Every filter path this processor runs: 2 (AVX2) and 3 (AVX-512) sum in the filter, 0 and
    // 1 leave it to ISA-L.
    defer { arsim_pngw_set_filter_path(-1) }
    for path: Int32 in 0...3 {
      let used = arsim_pngw_set_filter_path(path)
      for (name, image) in images {
        let png = try image.pngData(options: PNGEncoder(deflater: .runLengthHuffman))
        #expect(
          Self.storedAdler32(png) == Self.adler32(Self.upFilteredRows(image)),
          "\(name), path \(used)")
        #expect(try Image(pngData: png) == image, "\(name), path \(used)")
      }
    }
  }
}
