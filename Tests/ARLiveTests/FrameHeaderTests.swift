import ARLive
import Testing

@Suite struct FrameHeaderTests {
  /// Written out by hand from the table in Documentation/Live.md.
  static let example: [UInt8] = [
    0x41, 0x52, 0x53, 0x46,  // ARSF
    0x00, 0x01, 0x00, 0x28,  // version 1, header 40 bytes
    0, 0, 0, 0, 0, 0, 0x01, 0x02,  // sequence 258
    0, 0, 0, 0, 0, 0x07, 0xA1, 0x20,  // 500 000 µs
    0, 0, 0, 5, 0, 0, 0, 3,  // 5 × 3
    0x49, 0x34, 0x32, 0x30,  // I420
    0, 0, 0, 27,  // 15 + 2 · 3 · 2
  ]

  @Test("a header's bytes are the documented big-endian layout")
  func layout() {
    let header = FrameHeader(
      sequence: 258, presentationMicroseconds: 500_000, width: 5, height: 3, pixelFormat: .i420)
    #expect(header.bytes == Self.example)
    #expect(header.payloadLength == 27)
  }

  @Test("parsing gives the fields back")
  func parse() throws {
    let (header, length) = try FrameHeader.parse(Self.example)
    #expect(length == 40)
    #expect(header.sequence == 258)
    #expect(header.presentationMicroseconds == 500_000)
    #expect(header.width == 5 && header.height == 3)
    #expect(header.pixelFormat == .i420)
  }

  @Test("BGRA payloads are four bytes per pixel; I420 rounds odd chroma sizes up")
  func payloadSizes() {
    #expect(PixelFormat.bgra.payloadBytes(width: 3, height: 2) == 24)
    #expect(PixelFormat.i420.payloadBytes(width: 4, height: 2) == 8 + 2 * 2)
    #expect(PixelFormat.i420.payloadBytes(width: 1, height: 1) == 3)
    #expect(PixelFormat.i420.payloadBytes(width: 1280, height: 720) == 1_382_400)
    #expect(PixelFormat.bgra.fourCC == 0x4247_5241)
  }

  @Test(
    "broken headers are protocol violations, each with its reason",
    arguments: [
      (0, 0x42, "bad magic"), (5, 2, "version 2"), (7, 39, "header length 39"),
      (27, 0, "size 0×3"), (35, 0x31, "unknown pixel format"), (39, 28, "payload length 28"),
      (26, 0x21, "size 8453×3"),
    ])
  func broken(offset: Int, value: UInt8, reason: String) {
    var bytes = Self.example
    bytes[offset] = value
    do {
      _ = try FrameHeader.parse(bytes)
      Issue.record("parsed a broken header")
    } catch {
      #expect(error.failure == .protocolViolation)
      #expect(error.detail.contains(reason), "\(error.detail)")
    }
  }
}
