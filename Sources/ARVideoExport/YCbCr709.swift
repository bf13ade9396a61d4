import ARRenderCore

/// RGB → Y′CbCr 4:2:0 as ARSim's videos carry it: ITU-R BT.709 matrix, limited ("TV",
/// "video") range, 8 bits, the tags the encoder writes (`VideoEncoder`).
///
/// With R, G, B the frame's 8-bit sRGB-encoded values (0…255, used as BT.709 code values)
/// and E = 0.2126 R + 0.7152 G + 0.0722 B (BT.709 Kr, Kg, Kb):
/// - Y  = 16 + 219 · E / 255
/// - Cb = 128 + 224 · (B − E) / (255 · 1.8556)   (1.8556 = 2 (1 − Kb))
/// - Cr = 128 + 224 · (R − E) / (255 · 1.5748)   (1.5748 = 2 (1 − Kr))
///
/// rounded to nearest (16.16 fixed point). Chroma is computed from the mean R, G, B of each
/// 2×2 block, i.e. sited at the block centre (tagged `chroma_sample_location center`).
/// Alpha is ignored (frames are opaque).
///
/// H.264 4:2:0 needs even sizes: an odd width or height is padded by one column or row that
/// repeats the last one (edge replication shows no coloured border when a player ignores the
/// padding; `paddedWidth`/`paddedHeight` give the video's size).
public enum YCbCr709 {
  /// `width` rounded up to even.
  public static func paddedWidth(_ width: Int) -> Int { width + (width & 1) }
  /// `height` rounded up to even.
  public static func paddedHeight(_ height: Int) -> Int { height + (height & 1) }

  // 16.16 fixed-point coefficients of the formulas above.
  private static let scale = 65536.0
  private static let yR = Int((0.2126 * 219 / 255 * scale).rounded())
  private static let yG = Int((0.7152 * 219 / 255 * scale).rounded())
  private static let yB = Int((0.0722 * 219 / 255 * scale).rounded())
  private static let cbScale = 224 / (255 * 1.8556)
  private static let cbR = Int((-0.2126 * cbScale * scale).rounded())
  private static let cbG = Int((-0.7152 * cbScale * scale).rounded())
  private static let cbB = Int((0.9278 * cbScale * scale).rounded())
  private static let crScale = 224 / (255 * 1.5748)
  private static let crR = Int((0.7874 * crScale * scale).rounded())
  private static let crG = Int((-0.7152 * crScale * scale).rounded())
  private static let crB = Int((-0.0722 * crScale * scale).rounded())

  /// One frame as planar I420 (`yuv420p`): the Y plane (`paddedWidth · paddedHeight` bytes,
  /// rows top first), then Cb, then Cr (each `paddedWidth/2 · paddedHeight/2`).
  /// - Complexity: O(width · height).
  public static func planes(of image: Image) -> [UInt8] {
    let width = paddedWidth(image.width)
    let height = paddedHeight(image.height)
    let chromaWidth = width / 2
    let chromaHeight = height / 2
    var out = [UInt8](repeating: 128, count: width * height + 2 * chromaWidth * chromaHeight)
    guard image.width > 0, image.height > 0 else { return out }
    let sourceWidth = image.width
    let lastU = image.width - 1
    let lastV = image.height - 1
    image.pixels.withUnsafeBufferPointer { source in
      out.withUnsafeMutableBufferPointer { planes in
        let cbBase = width * height
        let crBase = cbBase + chromaWidth * chromaHeight
        for blockV in 0..<chromaHeight {
          for blockU in 0..<chromaWidth {
            var sumR = 0
            var sumG = 0
            var sumB = 0
            for dv in 0..<2 {
              let v = 2 * blockV + dv
              let sourceRow = min(v, lastV) * sourceWidth
              for du in 0..<2 {
                let u = 2 * blockU + du
                let i = (sourceRow + min(u, lastU)) * 4
                let r = Int(source[i])
                let g = Int(source[i + 1])
                let b = Int(source[i + 2])
                sumR += r
                sumG += g
                sumB += b
                planes[v * width + u] = UInt8((yR * r + yG * g + yB * b + (16 << 16) + 32768) >> 16)
              }
            }
            // Means of four pixels: coefficients / 4, i.e. two more bits of shift.
            let c = blockV * chromaWidth + blockU
            planes[cbBase + c] = UInt8(
              clamping: (cbR * sumR + cbG * sumG + cbB * sumB + (128 << 18) + (1 << 17)) >> 18)
            planes[crBase + c] = UInt8(
              clamping: (crR * sumR + crG * sumG + crB * sumB + (128 << 18) + (1 << 17)) >> 18)
          }
        }
      }
    }
    return out
  }
}
