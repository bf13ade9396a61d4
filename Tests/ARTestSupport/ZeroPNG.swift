/// A valid PNG of `width` × `height` black pixels (1-bit grayscale) that is small however
/// large it declares itself: its zlib stream is built by hand from deflate's fixed Huffman
/// codes (RFC 1951 §3.2.6), one literal zero and then 258-byte matches at distance 1, 13 bits
/// each. 16384 × 16384 takes about 210 KB; decoded as RGBA it would need 1 GiB.
public enum ZeroPNG {
  /// The PNG's bytes.
  public static func bytes(width: Int, height: Int) -> [UInt8] {
    let raw = height * (1 + (width + 7) / 8)  // a filter byte and the packed bits per row
    var bits = BitWriter()
    bits.write(1, count: 1)  // BFINAL
    bits.write(1, count: 2)  // BTYPE 01: fixed codes
    bits.code(0x30, length: 8)  // literal 0
    var left = raw - 1
    while left >= 258 {
      bits.code(0xC5, length: 8)  // length symbol 285: 258 bytes
      bits.code(0, length: 5)  // distance symbol 0: distance 1
      left -= 258
    }
    for _ in 0..<left { bits.code(0x30, length: 8) }
    bits.code(0, length: 7)  // end of block (256)
    // Adler-32 of `raw` zeros: a = 1, b = raw · 1.
    let adler = UInt32(raw % 65521) << 16 | 1
    let zlib = [0x78, 0x01] + bits.bytes + bigEndian(adler)
    var header: [UInt8] = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
    header += [1, 0, 0, 0, 0]  // 1 bit, grayscale, deflate, no filter choice, not interlaced
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
      + chunk("IDAT", zlib) + chunk("IEND", [])
  }

  private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
  }

  private static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }

  private static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }

  /// Deflate's bit order: values least significant bit first, Huffman codes most first.
  private struct BitWriter {
    var bytes: [UInt8] = []
    var used = 8

    mutating func write(_ value: Int, count: Int) {
      for i in 0..<count { bit((value >> i) & 1) }
    }

    mutating func code(_ code: Int, length: Int) {
      for i in (0..<length).reversed() { bit((code >> i) & 1) }
    }

    private mutating func bit(_ b: Int) {
      if used == 8 {
        bytes.append(0)
        used = 0
      }
      bytes[bytes.count - 1] |= UInt8(b << used)
      used += 1
    }
  }
}
