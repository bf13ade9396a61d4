/// RGB ↔ I420 with the BT.601 matrix in full range (JFIF; ARKit's `capturedImage` is
/// "full-range … ITU R. 601", reference §7.7):
///
///     Y  =       0.299 R + 0.587 G + 0.114 B
///     Cb = 128 − 0.168736 R − 0.331264 G + 0.5 B
///     Cr = 128 + 0.5 R − 0.418688 G − 0.081312 B
///
/// in 16-bit fixed point (coefficients × 65536, rounded so that each row sums exactly: grey
/// gives Cb = Cr = 128), rounded half up and clamped to 0…255. A chroma sample converts the
/// mean RGB of its 2 × 2 block (centre siting); on an odd last column or row the block has 2
/// or 1 pixels. Alpha is not carried. The inverse is BT.601 full range with nearest-neighbour
/// chroma (sample (i, j) covers pixels 2i…2i+1, 2j…2j+1):
/// R = Y + 1.402 (Cr − 128), G = Y − 0.344136 (Cb − 128) − 0.714136 (Cr − 128),
/// B = Y + 1.772 (Cb − 128).
public enum I420Conversion {
  static let yCoefficients: (Int32, Int32, Int32) = (19595, 38470, 7471)
  static let cbCoefficients: (Int32, Int32, Int32) = (-11059, -21709, 32768)
  static let crCoefficients: (Int32, Int32, Int32) = (32768, -27439, -5329)

  /// Writes the I420 planes of an RGBA8 image into `out` (`PixelFormat.i420` layout).
  /// Precondition: `rgba.count == width · height · 4`, `out.count` the I420 size (trap).
  /// - Complexity: O(width · height).
  public static func convert(
    rgba: UnsafeBufferPointer<UInt8>, width: Int, height: Int,
    into out: UnsafeMutableBufferPointer<UInt8>
  ) {
    precondition(rgba.count == width * height * 4, "RGBA size mismatch")
    precondition(out.count == PixelFormat.i420.payloadBytes(width: width, height: height))
    if width % 2 == 0, height % 2 == 0, let source = rgba.baseAddress, let target = out.baseAddress
    {
      convertEven(source, width: width, height: height, into: target)
    } else {
      convertAnySize(rgba: rgba, width: width, height: height, into: out)
    }
  }

  /// Any size, a pass for luma and one for chroma (odd sizes; the reference of `convertEven`).
  static func convertAnySize(
    rgba: UnsafeBufferPointer<UInt8>, width: Int, height: Int,
    into out: UnsafeMutableBufferPointer<UInt8>
  ) {
    let (yr, yg, yb) = yCoefficients
    for i in 0..<(width * height) {
      let r = Int32(rgba[4 * i]), g = Int32(rgba[4 * i + 1]), b = Int32(rgba[4 * i + 2])
      out[i] = UInt8(truncatingIfNeeded: (yr * r + yg * g + yb * b + 32768) >> 16)
    }
    let chromaWidth = (width + 1) / 2
    let chromaHeight = (height + 1) / 2
    let cbBase = width * height
    let crBase = cbBase + chromaWidth * chromaHeight
    for j in 0..<chromaHeight {
      let rows = min(2, height - 2 * j)
      for i in 0..<chromaWidth {
        let columns = min(2, width - 2 * i)
        var r: Int32 = 0
        var g: Int32 = 0
        var b: Int32 = 0
        for dy in 0..<rows {
          var p = ((2 * j + dy) * width + 2 * i) * 4
          for _ in 0..<columns {
            r += Int32(rgba[p])
            g += Int32(rgba[p + 1])
            b += Int32(rgba[p + 2])
            p += 4
          }
        }
        let n = Int32(rows * columns)
        out[cbBase + j * chromaWidth + i] = chroma(cbCoefficients, r, g, b, n)
        out[crBase + j * chromaWidth + i] = chroma(crCoefficients, r, g, b, n)
      }
    }
  }

  /// Even sizes in one pass over row pairs: each 2 × 2 block's four Y samples and its chroma
  /// (same arithmetic and bytes as the general path, which the tests compare).
  static func convertEven(
    _ rgba: UnsafePointer<UInt8>, width: Int, height: Int, into out: UnsafeMutablePointer<UInt8>
  ) {
    let (yr, yg, yb) = yCoefficients
    let chromaWidth = width / 2
    let cb = out + width * height
    let cr = cb + chromaWidth * (height / 2)
    for j in 0..<(height / 2) {
      let top = rgba + 2 * j * width * 4
      let bottom = top + width * 4
      let yTop = out + 2 * j * width
      let yBottom = yTop + width
      for i in 0..<chromaWidth {
        let p = 8 * i
        let r0 = Int32(top[p]), g0 = Int32(top[p + 1]), b0 = Int32(top[p + 2])
        let r1 = Int32(top[p + 4]), g1 = Int32(top[p + 5]), b1 = Int32(top[p + 6])
        let r2 = Int32(bottom[p]), g2 = Int32(bottom[p + 1]), b2 = Int32(bottom[p + 2])
        let r3 = Int32(bottom[p + 4]), g3 = Int32(bottom[p + 5]), b3 = Int32(bottom[p + 6])
        yTop[2 * i] = UInt8(truncatingIfNeeded: (yr &* r0 &+ yg &* g0 &+ yb &* b0 &+ 32768) >> 16)
        yTop[2 * i + 1] = UInt8(
          truncatingIfNeeded: (yr &* r1 &+ yg &* g1 &+ yb &* b1 &+ 32768) >> 16)
        yBottom[2 * i] = UInt8(
          truncatingIfNeeded: (yr &* r2 &+ yg &* g2 &+ yb &* b2 &+ 32768) >> 16)
        yBottom[2 * i + 1] = UInt8(
          truncatingIfNeeded: (yr &* r3 &+ yg &* g3 &+ yb &* b3 &+ 32768) >> 16)
        let r = r0 &+ r1 &+ r2 &+ r3
        let g = g0 &+ g1 &+ g2 &+ g3
        let b = b0 &+ b1 &+ b2 &+ b3
        // n = 4: (c · sum + 128 · 4 · 2^16 + 4 · 2^15) / 2^18, non-negative (see `chroma`).
        let cbValue =
          (cbCoefficients.0 &* r &+ cbCoefficients.1 &* g &+ cbCoefficients.2 &* b
            &+ 33_685_504) >> 18
        let crValue =
          (crCoefficients.0 &* r &+ crCoefficients.1 &* g &+ crCoefficients.2 &* b
            &+ 33_685_504) >> 18
        cb[j * chromaWidth + i] = UInt8(truncatingIfNeeded: min(255, cbValue))
        cr[j * chromaWidth + i] = UInt8(truncatingIfNeeded: min(255, crValue))
      }
    }
  }

  /// `128 + c · mean(rgb)`, rounded half up, clamped: the sums are of `n` pixels.
  @inline(__always)
  static func chroma(_ c: (Int32, Int32, Int32), _ r: Int32, _ g: Int32, _ b: Int32, _ n: Int32)
    -> UInt8
  {
    // c · sum + 128 · n · 2^16 ≥ 0, since |c · sum| ≤ 0.5 · 255 · n · 2^16.
    let scaled = c.0 * r + c.1 * g + c.2 * b + 128 * n * 65536 + n * 32768
    return UInt8(min(255, scaled / (n * 65536)))
  }

  /// The I420 planes of an RGBA8 byte array (see `convert(rgba:width:height:into:)`).
  public static func i420(rgba: [UInt8], width: Int, height: Int) -> [UInt8] {
    var out = [UInt8](
      repeating: 0, count: PixelFormat.i420.payloadBytes(width: width, height: height))
    rgba.withUnsafeBufferPointer { source in
      out.withUnsafeMutableBufferPointer {
        convert(rgba: source, width: width, height: height, into: $0)
      }
    }
    return out
  }

  /// Writes RGBA8 pixels (alpha untouched) from I420 planes.
  /// Precondition: sizes as `convert` (trap).
  /// - Complexity: O(width · height).
  public static func rgba(i420: [UInt8], width: Int, height: Int, into pixels: inout [UInt8]) {
    precondition(i420.count == PixelFormat.i420.payloadBytes(width: width, height: height))
    precondition(pixels.count == width * height * 4)
    let chromaWidth = (width + 1) / 2
    let cbBase = width * height
    let crBase = cbBase + chromaWidth * ((height + 1) / 2)
    for v in 0..<height {
      for u in 0..<width {
        let y = Double(i420[v * width + u])
        let c = (v / 2) * chromaWidth + u / 2
        let cb = Double(i420[cbBase + c]) - 128
        let cr = Double(i420[crBase + c]) - 128
        let p = (v * width + u) * 4
        pixels[p] = byte(y + 1.402 * cr)
        pixels[p + 1] = byte(y - 0.344136 * cb - 0.714136 * cr)
        pixels[p + 2] = byte(y + 1.772 * cb)
      }
    }
  }

  /// Rounded to nearest, clamped to 0…255.
  static func byte(_ x: Double) -> UInt8 { UInt8(max(0, min(255, x.rounded()))) }
}
