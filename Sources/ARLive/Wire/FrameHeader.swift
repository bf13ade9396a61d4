/// The fixed 40-byte header in front of every frame of the live wire format
/// (Documentation/Live.md). All numbers are big-endian (network byte order).
///
/// | offset | bytes | field |
/// |---|---|---|
/// | 0 | 4 | magic `ARSF` (0x41 0x52 0x53 0x46) |
/// | 4 | 2 | version (1) |
/// | 6 | 2 | header length in bytes (40; a reader skips what it does not know) |
/// | 8 | 8 | sequence number: the output frame index (gaps = frames not sent) |
/// | 16 | 8 | presentation time, signed microseconds of replay time τ |
/// | 24 | 4 | width, pixels |
/// | 28 | 4 | height, pixels |
/// | 32 | 4 | pixel format FourCC (`I420`, `BGRA`) |
/// | 36 | 4 | payload length in bytes (exactly the format's size for width × height) |
public struct FrameHeader: Hashable, Sendable {
  /// `ARSF`.
  public static let magic: [UInt8] = Array("ARSF".utf8)
  /// The version this code writes and reads.
  public static let version: UInt16 = 1
  /// Bytes of a version-1 header.
  public static let length = 40
  /// The largest width or height accepted (8192: a 256 MiB BGRA frame at most).
  public static let maximumDimension = 8192

  /// The output frame index.
  public var sequence: UInt64
  /// Replay time τ of the frame, microseconds.
  public var presentationMicroseconds: Int64
  /// Width in pixels (1…`maximumDimension`).
  public var width: Int
  /// Height in pixels (1…`maximumDimension`).
  public var height: Int
  /// The payload's layout.
  public var pixelFormat: PixelFormat

  /// Creates a header.
  public init(
    sequence: UInt64, presentationMicroseconds: Int64, width: Int, height: Int,
    pixelFormat: PixelFormat
  ) {
    self.sequence = sequence
    self.presentationMicroseconds = presentationMicroseconds
    self.width = width
    self.height = height
    self.pixelFormat = pixelFormat
  }

  /// The payload length this header announces.
  public var payloadLength: Int { pixelFormat.payloadBytes(width: width, height: height) }

  /// Writes the 40 header bytes at `bytes[offset...]`.
  /// Precondition: 40 bytes of room (trap).
  public func write(into bytes: inout [UInt8], at offset: Int = 0) {
    precondition(bytes.count >= offset + Self.length, "no room for the header")
    var i = offset
    func put(_ value: UInt64, _ count: Int) {
      for k in 0..<count {
        bytes[i + k] = UInt8(truncatingIfNeeded: value >> (8 * (count - 1 - k)))
      }
      i += count
    }
    for b in Self.magic {
      bytes[i] = b
      i += 1
    }
    put(UInt64(Self.version), 2)
    put(UInt64(Self.length), 2)
    put(sequence, 8)
    put(UInt64(bitPattern: presentationMicroseconds), 8)
    put(UInt64(width), 4)
    put(UInt64(height), 4)
    put(UInt64(pixelFormat.fourCC), 4)
    put(UInt64(payloadLength), 4)
  }

  /// The header bytes.
  public var bytes: [UInt8] {
    var b = [UInt8](repeating: 0, count: Self.length)
    write(into: &b)
    return b
  }

  /// Reads the fixed part (the first 40 bytes) of a header.
  /// - Returns: the header and the header length the sender announced (≥ 40; the reader skips
  ///   the extra bytes).
  /// - Throws: `LiveError` `.protocolViolation` for a wrong magic, an unknown version, a header
  ///   length under 40 or over 4096, a size of 0 or over `maximumDimension`, an unknown pixel
  ///   format, or a payload length other than the format's.
  public static func parse(_ b: [UInt8]) throws(LiveError) -> (FrameHeader, headerLength: Int) {
    guard b.count >= length else {
      throw LiveError(.protocolViolation, "header of \(b.count) bytes, expected \(length)")
    }
    func get(_ offset: Int, _ count: Int) -> UInt64 {
      (0..<count).reduce(0) { $0 << 8 | UInt64(b[offset + $1]) }
    }
    guard Array(b[0..<4]) == magic else {
      throw LiveError(
        .protocolViolation,
        "bad magic \(BroadcastSender.excerpt(Array(b[0..<4]))), expected 'ARSF'")
    }
    let version = get(4, 2)
    guard version == UInt64(Self.version) else {
      throw LiveError(.protocolViolation, "version \(version), this reader knows 1")
    }
    let headerLength = Int(get(6, 2))
    guard (length...4096).contains(headerLength) else {
      throw LiveError(.protocolViolation, "header length \(headerLength) outside 40…4096")
    }
    let width = Int(get(24, 4))
    let height = Int(get(28, 4))
    guard (1...maximumDimension).contains(width), (1...maximumDimension).contains(height) else {
      throw LiveError(
        .protocolViolation, "size \(width)×\(height) outside 1…\(maximumDimension) per side")
    }
    let code = UInt32(get(32, 4))
    guard let format = PixelFormat(fourCC: code) else {
      throw LiveError(.protocolViolation, "unknown pixel format 0x\(String(code, radix: 16))")
    }
    let header = FrameHeader(
      sequence: get(8, 8), presentationMicroseconds: Int64(bitPattern: get(16, 8)),
      width: width, height: height, pixelFormat: format)
    let announced = Int(get(36, 4))
    guard announced == header.payloadLength else {
      throw LiveError(
        .protocolViolation,
        "payload length \(announced) for \(format.rawValue) \(width)×\(height), expected "
          + "\(header.payloadLength)")
    }
    return (header, headerLength)
  }
}
