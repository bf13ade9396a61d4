import ARSupport

/// One decoded YUV4MPEG2 frame: 8-bit planes in I420 order.
///
/// Layout of `planes`: the Y plane (`width × height` bytes, rows top first), then for 4:2:0
/// the Cb plane and the Cr plane (each `⌈width/2⌉ × ⌈height/2⌉`); mono frames hold Y only.
public struct Y4MFrame: Hashable, Sendable {
  /// 0-based frame index in the file.
  public let index: Int
  /// Byte offset of the frame's `FRAME` marker in the file.
  public let byteOffset: Int
  /// The stream header (size, colour space, range).
  public let header: Y4MHeader
  /// Parameters written after `FRAME` on the marker line (usually none), in order.
  public let parameters: [String]
  /// The plane bytes, `header.frameByteCount` long.
  public let planes: [UInt8]

  /// Creates a frame; `nil` when `planes.count != header.frameByteCount`.
  public init?(
    index: Int, byteOffset: Int = 0, header: Y4MHeader, parameters: [String] = [],
    planes: [UInt8]
  ) {
    guard planes.count == header.frameByteCount else { return nil }
    self.index = index
    self.byteOffset = byteOffset
    self.header = header
    self.parameters = parameters
    self.planes = planes
  }

  /// The luma byte at pixel (u, v). Precondition: inside the frame (trap).
  public func luma(u: Int, v: Int) -> UInt8 {
    precondition(u >= 0 && u < header.width && v >= 0 && v < header.height, "pixel outside")
    return planes[v * header.width + u]
  }

  /// The (Cb, Cr) bytes covering pixel (u, v): the chroma sample (u/2, v/2) (nearest
  /// upsampling); (128, 128) for mono. Precondition: inside the frame (trap).
  public func chroma(u: Int, v: Int) -> (cb: UInt8, cr: UInt8) {
    precondition(u >= 0 && u < header.width && v >= 0 && v < header.height, "pixel outside")
    guard header.colorSpace.hasChroma else { return (128, 128) }
    let planeSize = header.chromaWidth * header.chromaHeight
    let i = header.width * header.height + (v / 2) * header.chromaWidth + u / 2
    return (planes[i], planes[i + planeSize])
  }
}
