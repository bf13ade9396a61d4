import ARFormats
import ARRender
import ARReplay
import Foundation
import Testing

/// YUV4MPEG2 videos (`Y4MReader`) and PNGs for `arsim compare` (`Image(pngData:file:)`): errors
/// name the file and, for Y4M, the byte offset and field.
@Suite struct BinaryCatalogTests {
  static let header = "YUV4MPEG2 W2 H2 F25:1 C420jpeg\n"
  static let frame = Array("FRAME\n".utf8) + [UInt8](repeating: 128, count: 6)

  struct Y4MCase: CustomTestStringConvertible, Sendable {
    var name: String
    var bytes: [UInt8]
    var byteOffset: Int
    var field: String?
    var testDescription: String { name }
  }

  static let y4mCases: [Y4MCase] = [
    Y4MCase(name: "empty file", bytes: [], byteOffset: 0, field: "signature"),
    Y4MCase(
      name: "truncated last frame", bytes: Array(header.utf8) + frame + frame.dropLast(2),
      byteOffset: header.utf8.count + 12 + 6, field: "frame 1"),
    Y4MCase(
      name: "non-numeric width", bytes: Array("YUV4MPEG2 Wtwo H2 F25:1\n".utf8), byteOffset: 10,
      field: "W"),
    Y4MCase(
      name: "huge height", bytes: Array("YUV4MPEG2 W2 H99999999999 F25:1\n".utf8),
      byteOffset: 13, field: "H"),
    Y4MCase(
      name: "a PNG named .y4m", bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
      byteOffset: 0, field: "signature"),
    Y4MCase(
      name: "binary garbage after the header", bytes: Array(header.utf8) + [0xFF, 0x00, 0x0A],
      byteOffset: header.utf8.count, field: "frame 0"),
    Y4MCase(
      name: "invalid UTF-8 in the colour space",
      bytes: Array("YUV4MPEG2 W2 H2 F25:1 C".utf8) + [0xFF, 0x0A], byteOffset: 22, field: "C"),
  ]

  @Test("malformed Y4M files name the file, byte offset and field", arguments: y4mCases)
  func y4m(_ entry: Y4MCase) throws {
    let folder = try CatalogFolder()
    defer { folder.remove() }
    try folder.write("v.y4m", entry.bytes)
    let path = folder.path + "/v.y4m"
    let error = #expect(throws: Y4MError.self) {
      let reader = try Y4MReader(path: path)
      try reader.scan()
      while try reader.nextFrame() != nil {}
    }
    #expect(error?.kind == .badData)
    #expect(error?.location.file == path)
    #expect(error?.location.byteOffset == entry.byteOffset, "\(String(describing: error))")
    #expect(error?.location.field == entry.field)
  }

  @Test("a single 20 MB line is refused within 4 KiB as a header error")
  func y4mTwentyMegabyteLine() throws {
    let error = #expect(throws: Y4MError.self) { try Y4MReader(path: twentyMegabyteLine) }
    #expect(error?.location.byteOffset == 0)
    #expect(error?.description.contains("bad YUV4MPEG2 header") == true)
  }

  @Test("a missing Y4M is missing input naming the file")
  func y4mMissing() {
    let error = #expect(throws: Y4MError.self) { try Y4MReader(path: "/nonexistent/v.y4m") }
    #expect(error?.kind == .missingInput)
    #expect(error?.location.file == "/nonexistent/v.y4m")
  }

  static let validPNG: [UInt8] =
    (try? Image(width: 2, height: 2, fill: (255, 255, 255, 255)).pngData()) ?? []

  static let pngCases: [(String, [UInt8])] = [
    ("empty file", []),
    ("truncated after the header", Array(validPNG.prefix(30))),
    ("truncated before IEND", Array(validPNG.dropLast(12))),
    ("a Y4M named .png", Array(header.utf8) + frame),
    ("binary garbage", (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 13) }),
    (
      "a corrupt IHDR CRC",
      validPNG.enumerated().map { $0.offset == 29 ? $0.element ^ 0xFF : $0.element }
    ),
    (
      "an IHDR of 100 000 × 100 000 pixels",
      Array(validPNG.prefix(16)) + [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0] + validPNG.dropFirst(24)
    ),
  ]

  @Test("malformed PNGs for compare are bad data naming the file", arguments: 0..<7)
  func png(_ index: Int) throws {
    let (name, bytes) = Self.pngCases[index]
    #expect(!Self.validPNG.isEmpty)
    let error = #expect(throws: PNGError.self, "\(name)") {
      try Image(pngData: bytes, file: "expected/frame_00000.png")
    }
    #expect(error?.kind == .badData)
    #expect(error?.description.hasPrefix("expected/frame_00000.png: invalid PNG: ") == true)
  }

  @Test("a 20 MB non-PNG and a missing PNG file")
  func pngFiles() throws {
    let big = #expect(throws: PNGError.self) { try Image(contentsOfPNG: twentyMegabyteLine) }
    #expect(big?.location.file == twentyMegabyteLine)
    let missing = #expect(throws: InputError.self) {
      try Image(contentsOfPNG: "/nonexistent/a.png")
    }
    #expect(missing?.kind == .missingInput)
  }
}
