import CPNGWriter
import Testing

@testable import ARRender

/// ARSim's run-length deflate (`PNGEncoder.Deflater.runLengthHuffman`, `CPNGWriter`'s
/// RunLengthDeflate.c), decoded by libpng: runs split at deflate's 258-byte limit, alphabets
/// from one symbol to all 256 literals, and every pixel layout (runs repeat the pixel to the
/// left: 2, 3 or 4 bytes back).
@Suite("PNG writer: run-length deflate")
struct RunLengthDeflateTests {
  static let encoder = PNGEncoder(deflater: .runLengthHuffman)

  static func solid(width: Int, height: Int, rgba: [UInt8]) -> Image {
    Image(width: width, height: height, fill: (rgba[0], rgba[1], rgba[2], rgba[3]))
  }

  @Test("one-colour rows of every width 1…300: runs of 0…897 bytes, around 258, 516 and 774")
  func runLengths() throws {
    for width in 1...300 {
      let image = Self.solid(width: width, height: 3, rgba: [200, 17, 90, 255])
      let data = try image.pngData(options: Self.encoder)
      #expect(try Image(pngData: data) == image, "width \(width)")
    }
  }

  @Test("a one-colour frame is almost all runs: 1920×1440 in under 40 KB")
  func runsCarryFlatImages() throws {
    let image = Self.solid(width: 1920, height: 1440, rgba: [30, 60, 90, 255])
    let data = try image.pngData(options: Self.encoder)
    // 8.3 MB of filtered bytes, 5760 per row: 23 runs of ≤ 258 bytes a row (a few bits each),
    // against ≥ 1 bit per byte (≥ 1 MB) if every byte were a literal.
    #expect(data.count < 40_000)
    #expect(try Image(pngData: data) == image)
  }

  @Test("noise: all 256 literals, no runs, several Huffman blocks")
  func noise() throws {
    var generator = SeededGenerator(seed: 7)
    var image = Image(width: 700, height: 700)
    for i in 0..<image.pixels.count {
      image.pixels[i] = i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: generator.next())
    }
    let data = try image.pngData(options: Self.encoder)
    #expect(try Image(pngData: data) == image)
    // Incompressible: about 8 bits per byte plus block headers, never far above.
    #expect(data.count < 700 * 700 * 3 * 9 / 8)
  }

  @Test("RGBA and translucent pixels: runs four bytes back")
  func rgba() throws {
    var image = PNGWriterTests.frameLike(width: 333, height: 77, opaque: false)
    for i in stride(from: 3, to: image.pixels.count, by: 4) { image.pixels[i] = UInt8(i % 251) }
    let data = try image.pngData(options: Self.encoder)
    #expect(data[25] == 6)
    #expect(try Image(pngData: data) == image)
  }

  @Test("every code path writes the first body loop's bytes: noise, runs, frame-like and RGBA")
  func bodyPaths() throws {
    var generator = SeededGenerator(seed: 11)
    // Noise: literals only, two Huffman blocks (1.47 MB of rows), long codes for rare bytes.
    // Runs over 258 bytes: the 300-pixel solid rows (897 bytes of run each).
    var noise = Image(width: 700, height: 700)
    for i in 0..<noise.pixels.count {
      noise.pixels[i] = i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: generator.next())
    }
    // Runs of every length 1…40 pixels between random pixels: many run codes, and token
    // counts of every remainder modulo 6 (the three-per-store body's tail).
    var mixed = Image(width: 611, height: 90)
    var x = 0
    while x < mixed.width * mixed.height {
      let run = x % 41
      let colour = (0..<3).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
      for k in x..<min(x + run + 1, mixed.width * mixed.height) {
        mixed.pixels[4 * k..<4 * k + 3] = colour[0..<3]
        mixed.pixels[4 * k + 3] = 255
      }
      x += run + 1
    }
    var rgba = PNGWriterTests.frameLike(width: 333, height: 77, opaque: false)
    for i in stride(from: 3, to: rgba.pixels.count, by: 4) { rgba.pixels[i] = UInt8(i % 251) }
    let images =
      [noise, mixed, rgba, PNGWriterTests.frameLike(width: 700, height: 200, opaque: true)]
      + (1...17).map { Self.solid(width: $0, height: 2, rgba: [9, 8, 7, 255]) }
      + [Self.solid(width: 300, height: 3, rgba: [9, 8, 7, 255])]
    defer { arsim_rle_set_body_path(-1) }
    for (n, image) in images.enumerated() {
      #expect(arsim_rle_set_body_path(0) == 0)
      let reference = try image.pngData(options: Self.encoder)
      #expect(try Image(pngData: reference) == image, "image \(n)")
      // Path 1 runs everywhere; path 2 (BMI2, AVX2 tokenizer) falls back to 1 without them.
      for path: Int32 in 1...2 {
        let used = arsim_rle_set_body_path(path)
        #expect(try image.pngData(options: Self.encoder) == reference, "image \(n), path \(used)")
      }
    }
  }

  @Test("runs ending in their own 64-byte mask word, the next one and further ones")
  func runEndsAcrossMaskWords() throws {
    // Odd rows: noise with one run of a repeated pixel, starting at pixel 0…66 and 1…90 pixels
    // long (up to 270 bytes: ends up to four mask words past the start); even rows black, so the
    // UP filter keeps the odd rows' runs (and negates them in the even rows).
    var generator = SeededGenerator(seed: 23)
    let width = 100
    var image = Image(width: width, height: 800, fill: (0, 0, 0, 255))
    for j in 0..<400 {
      let y = 2 * j + 1, start = j % 67, length = 1 + (j / 67 * 13 + j) % 90
      for x in 0..<width {
        let i = 4 * (y * width + x)
        for c in 0..<3 { image.pixels[i + c] = UInt8(truncatingIfNeeded: generator.next()) }
      }
      let first = 4 * (y * width + start)
      for x in start + 1..<min(width, start + 1 + length) {
        let i = 4 * (y * width + x)
        image.pixels[i..<i + 3] = image.pixels[first..<first + 3]
      }
    }
    let data = try image.pngData(options: Self.encoder)
    #expect(try Image(pngData: data) == image)
  }

  @Test("a 1 × 1 image and a single-symbol stream")
  func tiny() throws {
    let one = Self.solid(width: 1, height: 1, rgba: [0, 0, 0, 255])
    #expect(try Image(pngData: one.pngData(options: Self.encoder)) == one)
    let black = Self.solid(width: 64, height: 64, rgba: [0, 0, 0, 255])
    #expect(try Image(pngData: black.pngData(options: Self.encoder)) == black)
  }
}
