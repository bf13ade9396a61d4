import ARRenderCore
import ARScene

/// Undistorts recorded images and resamples them onto the output camera, with a table made
/// once per (lens, output) pair.
///
/// For each output pixel centre (u, v) the ray through it (output intrinsics; for the
/// `portrait` viewport turned back into the capture camera) is distorted by the lens and
/// projected into the recorded image, where the colour is interpolated **bilinearly** between
/// the four nearest pixel centres (OpenCV's `INTER_LINEAR`), with positions kept to 1/256
/// pixel and weights in 16-bit fixed point. A position more than half a pixel outside the
/// recorded image shows `fill`. Equivalent to OpenCV's
/// `initUndistortRectifyMap(K, D, I, K_out, size)` + `remap(…, INTER_LINEAR)`.
///
/// When every output pixel lands exactly on a source pixel centre (fraction 0, or 1 towards the
/// last column or row), bilinear interpolation returns that pixel unchanged (its weight is
/// 65536/65536), so `resample` copies instead: rows of the source as they are (`Path.rowCopy`,
/// an aspect-fill crop at scale 1), or the decoded image itself when the mapping is the
/// identity (`Path.passThrough`: the lens is the output camera). Same bytes as the table.
public struct CameraImageResampler: Sendable {
  /// How `resample` maps pixels, found from the table when it is built.
  public enum Path: Sendable, Equatable {
    /// Bilinear interpolation through the per-pixel table.
    case bilinear
    /// Each output row is a run of one source row (starting at `sourceRowStarts`).
    case rowCopy
    /// The output is the source: same size, each pixel onto itself.
    case passThrough
  }

  /// Output size.
  public let width: Int
  /// Output size.
  public let height: Int
  /// Recorded image size the table is for.
  public let sourceWidth: Int
  /// Recorded image size the table is for.
  public let sourceHeight: Int
  /// Per output pixel: the index of the top-left source pixel, or `UInt32.max` for `fill`.
  private let offsets: [UInt32]
  /// Per output pixel: the fraction right and down of that pixel, in 1/256 (0…256).
  private let fractions: [SIMD2<UInt16>]
  /// RGBA shown where the ray misses the recorded image.
  public let fill: SIMD4<UInt8>
  /// How `resample` maps pixels.
  public let path: Path
  /// With `Path.rowCopy`: per output row, the source pixel index its first pixel copies.
  private let sourceRowStarts: [Int]
  /// Whether any output pixel sees the recorded image (false: every pixel shows `fill`, as
  /// with a lens whose centre or distortion lies far off).
  public let seesImage: Bool

  /// Builds the mapping: the copy paths when it is exact (found pixel by pixel without a
  /// table), else the bilinear table.
  /// - Parameters:
  ///   - lens: the recorded images' lens (its intrinsics' size is the table's source size).
  ///   - output: the output camera's intrinsics (`ReplayScene.outputIntrinsics`).
  ///   - viewport: how the capture is shown; the recorded images are the capture camera's.
  ///   - fill: RGBA outside the recorded image.
  ///   - copies: whether an exact mapping may copy (`Path`); false keeps the table (tests
  ///     compare the two).
  public init(
    lens: CameraLens, output: CameraIntrinsics, viewport: Viewport = .landscape,
    fill: SIMD4<UInt8> = SIMD4(0, 0, 0, 255), copies: Bool = true
  ) {
    width = output.width
    height = output.height
    sourceWidth = lens.intrinsics.width
    sourceHeight = lens.intrinsics.height
    self.fill = fill
    let mapping = Mapping(
      lens: lens, output: output, viewport: viewport, sourceWidth: sourceWidth,
      sourceHeight: sourceHeight)
    // An exact mapping is found without the table (22 MB at 1920×1440, built only when needed).
    if copies, let rowStarts = Self.rowStarts(mapping, width: width, height: height) {
      let rowLength = sourceWidth
      let identity =
        width == sourceWidth && height == sourceHeight
        && rowStarts.indices.allSatisfy { rowStarts[$0] == $0 * rowLength }
      path = identity ? .passThrough : .rowCopy
      sourceRowStarts = rowStarts
      seesImage = true
      offsets = []
      fractions = []
      return
    }
    var offsets = [UInt32](repeating: .max, count: width * height)
    var fractions = [SIMD2<UInt16>](repeating: .zero, count: width * height)
    var seen = false
    for v in 0..<height {
      for u in 0..<width {
        guard let (offset, fraction) = mapping.sample(u: u, v: v) else { continue }
        offsets[v * width + u] = offset
        fractions[v * width + u] = fraction
        seen = true
      }
    }
    seesImage = seen
    path = .bilinear
    sourceRowStarts = []
    self.offsets = offsets
    self.fractions = fractions
  }

  /// Where the output pixels fall in the recorded image.
  private struct Mapping {
    let lens: CameraLens
    let output: CameraIntrinsics
    let viewport: Viewport
    let sourceWidth: Int
    let sourceHeight: Int

    /// Output pixel (u, v)'s top-left source pixel index and its fraction right and down in
    /// 1/256 (0…256), or nil where the ray misses the recorded image (`fill`).
    @inline(__always) func sample(u: Int, v: Int) -> (UInt32, SIMD2<UInt16>)? {
      let k = lens.intrinsics
      let maxX = Double(sourceWidth - 1)
      let maxY = Double(sourceHeight - 1)
      let yr = (Double(v) - output.cy) / output.fy
      let xr = (Double(u) - output.cx) / output.fx
      // Portrait: screen right = capture +Y (v down in the capture is screen left).
      let (xc, yc) = viewport == .landscape ? (xr, yr) : (yr, -xr)
      let (xd, yd) = lens.distortion.distort(x: xc, y: yc)
      let sx = k.fx * xd + k.cx
      let sy = k.fy * yd + k.cy
      guard sx >= -0.5, sy >= -0.5, sx <= maxX + 0.5, sy <= maxY + 0.5 else { return nil }
      // Clamp to the edge centres (half a pixel of edge is replicated), then split the
      // position into a top-left pixel and a fraction in 1/256 (a fraction of 256 moves on).
      let px = (min(max(sx, 0), maxX) * 256).rounded()
      let py = (min(max(sy, 0), maxY) * 256).rounded()
      var (x0, fx) = (Int(px) >> 8, Int(px) & 255)
      var (y0, fy) = (Int(py) >> 8, Int(py) & 255)
      // The last column/row has no right/lower neighbour: the pixel before, fraction 1.
      if x0 == sourceWidth - 1, x0 > 0 { (x0, fx) = (x0 - 1, 256) }
      if y0 == sourceHeight - 1, y0 > 0 { (y0, fy) = (y0 - 1, 256) }
      return (UInt32(y0 * sourceWidth + x0), SIMD2(UInt16(fx), UInt16(fy)))
    }
  }

  /// When every output pixel's bilinear weights fall wholly on one source pixel and each row's
  /// pixels are consecutive source pixels: the source index of each row's first pixel (nil at
  /// the first pixel that is not).
  private static func rowStarts(_ mapping: Mapping, width: Int, height: Int) -> [Int]? {
    guard width > 0 else { return nil }
    let sourceWidth = mapping.sourceWidth
    var starts: [Int] = []
    starts.reserveCapacity(height)
    for v in 0..<height {
      var first = 0
      for u in 0..<width {
        // A fraction of 256 (the last column or row) is the next pixel, whole.
        guard let (offset, f) = mapping.sample(u: u, v: v),
          f.x == 0 || f.x == 256, f.y == 0 || f.y == 256
        else { return nil }
        let index = Int(offset) + (f.x == 256 ? 1 : 0) + (f.y == 256 ? sourceWidth : 0)
        if u == 0 {
          first = index
        } else if index != first + u {
          return nil
        }
      }
      starts.append(first)
    }
    return starts
  }

  /// The recorded image resampled to the output (`width`×`height`, alpha 255).
  /// - Parameter knownOpaque: the caller knows every alpha byte is 255 (a decoded JPEG), so
  ///   `Path.passThrough` hands the image through without checking; false checks.
  /// Precondition: `image` is `sourceWidth`×`sourceHeight` (trap); with `knownOpaque`, every
  /// alpha byte is 255 (not checked).
  public func resample(_ image: Image, knownOpaque: Bool = false) -> Image {
    precondition(image.width == sourceWidth && image.height == sourceHeight, "image size")
    switch path {
    case .passThrough:
      // An opaque image is the output already: nothing to do.
      if knownOpaque || Self.isOpaque(image.pixels) { return image }
      return copyRows(image)
    case .rowCopy:
      return copyRows(image)
    case .bilinear:
      return interpolate(image)
    }
  }

  /// Whether every alpha byte of RGBA `pixels` is 255.
  private static func isOpaque(_ pixels: [UInt8]) -> Bool {
    pixels.withUnsafeBytes { bytes in
      // All pixels ANDed together (a loop the compiler vectorises); alpha is the last byte.
      var all = UInt32.max
      for i in 0..<(bytes.count / 4) {
        all &= UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
      }
      return all >> 24 == 255
    }
  }

  /// `Path.rowCopy` (and `passThrough` for an image that is not opaque): each output row the
  /// run of source pixels from its row start, alpha 255.
  private func copyRows(_ image: Image) -> Image {
    let rowBytes = width * 4
    let out = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
      image.pixels.withUnsafeBytes { source in
        guard let s = source.baseAddress, let d = buffer.baseAddress else { return }
        for v in 0..<height {
          let row = d + v * rowBytes
          UnsafeMutableRawPointer(row).copyMemory(
            from: s + sourceRowStarts[v] * 4, byteCount: rowBytes)
          for a in stride(from: 3, to: rowBytes, by: 4) { row[a] = 255 }
        }
      }
      count = width * height * 4
    }
    // The buffer has width · height · 4 bytes by construction, so the fallback is never taken.
    return Image(width: width, height: height, pixels: out) ?? image
  }

  /// `Path.bilinear`: the table's interpolation.
  private func interpolate(_ image: Image) -> Image {
    var out = [UInt8](repeating: 255, count: width * height * 4)
    let stride = sourceWidth * 4
    let stepX = sourceWidth > 1 ? 4 : 0
    let stepY = sourceHeight > 1 ? stride : 0
    image.pixels.withUnsafeBufferPointer { source in
      out.withUnsafeMutableBufferPointer { destination in
        offsets.withUnsafeBufferPointer { offsets in
          fractions.withUnsafeBufferPointer { fractions in
            // Both buffers hold at least one pixel (the sizes are positive by construction).
            guard let s = source.baseAddress, let d = destination.baseAddress else { return }
            for i in 0..<offsets.count {
              let offset = offsets[i]
              let o = i * 4
              guard offset != .max else {
                d[o] = fill.x
                d[o + 1] = fill.y
                d[o + 2] = fill.z
                d[o + 3] = fill.w
                continue
              }
              let f = fractions[i]
              let fx = UInt32(f.x)
              let fy = UInt32(f.y)
              let w00 = (256 - fx) * (256 - fy)
              let w10 = fx * (256 - fy)
              let w01 = (256 - fx) * fy
              let w11 = fx * fy
              let p = Int(offset) * 4
              for c in 0..<3 {
                let sum =
                  w00 * UInt32(s[p + c]) + w10 * UInt32(s[p + stepX + c])
                  + w01 * UInt32(s[p + stepY + c]) + w11 * UInt32(s[p + stepY + stepX + c])
                d[o + c] = UInt8((sum + 32768) >> 16)
              }
            }
          }
        }
      }
    }
    // The buffer has width · height · 4 bytes by construction, so the fallback is never taken.
    return Image(width: width, height: height, pixels: out) ?? image
  }
}
