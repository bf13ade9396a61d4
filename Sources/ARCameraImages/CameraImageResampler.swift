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
public struct CameraImageResampler: Sendable {
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

  /// Builds the table.
  /// - Parameters:
  ///   - lens: the recorded images' lens (its intrinsics' size is the table's source size).
  ///   - output: the output camera's intrinsics (`ReplayScene.outputIntrinsics`).
  ///   - viewport: how the capture is shown; the recorded images are the capture camera's.
  ///   - fill: RGBA outside the recorded image.
  public init(
    lens: CameraLens, output: CameraIntrinsics, viewport: Viewport = .landscape,
    fill: SIMD4<UInt8> = SIMD4(0, 0, 0, 255)
  ) {
    width = output.width
    height = output.height
    sourceWidth = lens.intrinsics.width
    sourceHeight = lens.intrinsics.height
    self.fill = fill
    var offsets = [UInt32](repeating: .max, count: width * height)
    var fractions = [SIMD2<UInt16>](repeating: .zero, count: width * height)
    let k = lens.intrinsics
    let maxX = Double(sourceWidth - 1)
    let maxY = Double(sourceHeight - 1)
    for v in 0..<height {
      let yr = (Double(v) - output.cy) / output.fy
      for u in 0..<width {
        let xr = (Double(u) - output.cx) / output.fx
        // Portrait: screen right = capture +Y (v down in the capture is screen left).
        let (xc, yc) = viewport == .landscape ? (xr, yr) : (yr, -xr)
        let (xd, yd) = lens.distortion.distort(x: xc, y: yc)
        let sx = k.fx * xd + k.cx
        let sy = k.fy * yd + k.cy
        guard sx >= -0.5, sy >= -0.5, sx <= maxX + 0.5, sy <= maxY + 0.5 else { continue }
        // Clamp to the edge centres (half a pixel of edge is replicated), then split the
        // position into a top-left pixel and a fraction in 1/256 (a fraction of 256 moves on).
        let px = (min(max(sx, 0), maxX) * 256).rounded()
        let py = (min(max(sy, 0), maxY) * 256).rounded()
        var (x0, fx) = (Int(px) >> 8, Int(px) & 255)
        var (y0, fy) = (Int(py) >> 8, Int(py) & 255)
        // The last column/row has no right/lower neighbour: the pixel before, fraction 1.
        if x0 == sourceWidth - 1, x0 > 0 { (x0, fx) = (x0 - 1, 256) }
        if y0 == sourceHeight - 1, y0 > 0 { (y0, fy) = (y0 - 1, 256) }
        offsets[v * width + u] = UInt32(y0 * sourceWidth + x0)
        fractions[v * width + u] = SIMD2(UInt16(fx), UInt16(fy))
      }
    }
    self.offsets = offsets
    self.fractions = fractions
  }

  /// The recorded image resampled to the output (`width`×`height`, alpha 255).
  /// Precondition: `image` is `sourceWidth`×`sourceHeight` (trap).
  public func resample(_ image: Image) -> Image {
    precondition(image.width == sourceWidth && image.height == sourceHeight, "image size")
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
