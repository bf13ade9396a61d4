import ARRender

/// Frames of the live wire format: a `FrameHeader` followed by the payload
/// (Documentation/Live.md).
public enum WireFrame {
  /// The header and payload of `image` in one buffer, ready for `send`.
  /// - Parameters:
  ///   - image: RGBA8, sRGB encoded (`Image`'s layout).
  ///   - format: `i420` (BT.601 full range, chroma of 2 × 2 means) or `bgra`.
  ///   - sequence: the output frame index.
  ///   - presentationMicroseconds: the frame's replay time τ.
  /// Precondition: 1…8192 pixels per side (trap).
  /// - Complexity: O(width · height).
  public static func encode(
    _ image: Image, format: PixelFormat, sequence: UInt64, presentationMicroseconds: Int64
  ) -> [UInt8] {
    let header = FrameHeader(
      sequence: sequence, presentationMicroseconds: presentationMicroseconds,
      width: image.width, height: image.height, pixelFormat: format)
    precondition(
      (1...FrameHeader.maximumDimension).contains(image.width)
        && (1...FrameHeader.maximumDimension).contains(image.height), "frame size out of range")
    var bytes = [UInt8](repeating: 0, count: FrameHeader.length + header.payloadLength)
    header.write(into: &bytes)
    bytes.withUnsafeMutableBufferPointer { out in
      image.pixels.withUnsafeBufferPointer { rgba in
        let payload = UnsafeMutableBufferPointer(rebasing: out[FrameHeader.length...])
        switch format {
        case .i420:
          I420Conversion.convert(
            rgba: rgba, width: image.width, height: image.height, into: payload)
        case .bgra:
          for i in stride(from: 0, to: rgba.count, by: 4) {
            payload[i] = rgba[i + 2]
            payload[i + 1] = rgba[i + 1]
            payload[i + 2] = rgba[i]
            payload[i + 3] = rgba[i + 3]
          }
        }
      }
    }
    return bytes
  }

  /// The RGBA8 image of a received payload (alpha 255 for `i420`).
  /// Precondition: `payload.count == header.payloadLength` (trap; `FrameHeader.parse` checks
  /// the announced length).
  /// - Complexity: O(width · height).
  public static func image(header: FrameHeader, payload: [UInt8]) -> Image {
    precondition(payload.count == header.payloadLength, "payload length mismatch")
    let (w, h) = (header.width, header.height)
    var pixels = [UInt8](repeating: 255, count: w * h * 4)
    switch header.pixelFormat {
    case .i420:
      I420Conversion.rgba(i420: payload, width: w, height: h, into: &pixels)
    case .bgra:
      for i in stride(from: 0, to: pixels.count, by: 4) {
        pixels[i] = payload[i + 2]
        pixels[i + 1] = payload[i + 1]
        pixels[i + 2] = payload[i]
        pixels[i + 3] = payload[i + 3]
      }
    }
    guard let image = Image(width: w, height: h, pixels: pixels) else {
      preconditionFailure("image size mismatch")
    }
    return image
  }
}
