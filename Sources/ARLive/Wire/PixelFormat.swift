/// The payload layouts of the live frame wire format (Documentation/Live.md), named by their
/// FourCC as the header carries them.
public enum PixelFormat: String, Sendable, CaseIterable {
  /// Planar 8-bit Y′CbCr 4:2:0 (`I420`): the Y plane (`width · height` bytes, rows top
  /// first), then Cb and Cr planes of `⌈width/2⌉ · ⌈height/2⌉` bytes each. BT.601 full
  /// range (Y, Cb, Cr all 0…255, chroma centre 128), as ARKit's `capturedImage`; each
  /// chroma sample is the mean of its 2 × 2 block (sited at the block's centre; an odd last
  /// column or row averages the pixels it has).
  case i420 = "I420"
  /// 8-bit B, G, R, A per pixel (`BGRA`), rows top first, `width · height · 4` bytes; alpha
  /// not premultiplied (CoreVideo's `kCVPixelFormatType_32BGRA` byte order).
  case bgra = "BGRA"

  /// The FourCC as a big-endian 32-bit number (`I420` = 0x49343230).
  public var fourCC: UInt32 {
    rawValue.utf8.reduce(0) { $0 << 8 | UInt32($1) }
  }

  /// The format with this FourCC, or nil.
  public init?(fourCC: UInt32) {
    guard let format = Self.allCases.first(where: { $0.fourCC == fourCC }) else { return nil }
    self = format
  }

  /// Payload bytes of a `width` × `height` frame.
  public func payloadBytes(width: Int, height: Int) -> Int {
    switch self {
    case .i420: width * height + 2 * ((width + 1) / 2) * ((height + 1) / 2)
    case .bgra: width * height * 4
    }
  }
}
