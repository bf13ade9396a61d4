import ARRenderCore
import ARScene
import ARSupport

/// BT.601 YCbCr → RGB conversion of 8-bit samples, with the chroma centre at 128.
///
/// Standard conversion (ITU-R BT.601 / JFIF), with u = Cb − 128 and v = Cr − 128:
/// - `full` range: y = Y;
/// - `limited` range: y = (Y − 16) · 255/219 and u, v scaled by 255/224 first;
/// then R = y + 1.402 v, G = y − 0.344136 u − 0.714136 v, B = y + 1.772 u, each clamped to
/// 0…255 and rounded to nearest (halves away from zero).
///
/// `appKernel` reproduces the Agora ARKit sample's Metal kernel `writeRGBFromYUV`
/// (`AgoraMetalShader.metal`, reference §3.6) in `Float`: y = Y/255, u = Cb/255 − 0.5,
/// v = Cr/255 − 0.5 (so the chroma centre is 127.5), R = y + 1.402 v,
/// G = y − 0.3441 u − 0.7141 v, B = y + 1.772 u — full-range coefficients whatever the
/// stream's range. The kernel does not clamp; the display does, so ARSim clamps to 0…1, then
/// takes round(255 · value). Not reproduced: the kernel's `rgba16Float` storage rounding and
/// SceneKit's colour management of a float texture.
///
/// Mono frames convert with u = v = 0 in every mode (exact grey).
public struct YCbCrConversion: Hashable, Sendable {
  /// The quantisation range of the input (ignored by `appKernel`).
  public var range: YCbCrRange
  /// Whether to reproduce the app's Metal kernel instead of the standard conversion.
  public var appKernel: Bool

  /// Creates a conversion.
  public init(range: YCbCrRange, appKernel: Bool = false) {
    self.range = range
    self.appKernel = appKernel
  }

  /// The RGB bytes of one (Y, Cb, Cr) sample.
  public func rgb(y: UInt8, cb: UInt8, cr: UInt8) -> (r: UInt8, g: UInt8, b: UInt8) {
    if appKernel { return kernelRGB(y: y, u: Float(cb) / 255 - 0.5, v: Float(cr) / 255 - 0.5) }
    return standardRGB(y: y, u: Double(cb) - 128, v: Double(cr) - 128)
  }

  /// The grey RGB bytes of a luma-only sample (u = v = 0).
  public func grey(y: UInt8) -> (r: UInt8, g: UInt8, b: UInt8) {
    appKernel ? kernelRGB(y: y, u: 0, v: 0) : standardRGB(y: y, u: 0, v: 0)
  }

  /// The frame as an RGBA8 texture (alpha 255), same size, top row first. Chroma is upsampled
  /// by nearest neighbour: chroma sample (i, j) covers pixels (2i…2i+1, 2j…2j+1).
  /// - Complexity: O(width · height).
  public func texture(from frame: Y4MFrame) -> Texture {
    let pixels = rgbaBytes(from: frame)
    // Sizes agree by construction, and a header always has width, height ≥ 1.
    guard
      let texture = Texture(width: frame.header.width, height: frame.header.height, pixels: pixels)
    else { preconditionFailure("texture size mismatch") }
    return texture
  }

  /// The frame as an `Image` (same bytes as `texture(from:)`).
  /// - Complexity: O(width · height).
  public func image(from frame: Y4MFrame) -> Image {
    let pixels = rgbaBytes(from: frame)
    guard let image = Image(width: frame.header.width, height: frame.header.height, pixels: pixels)
    else { preconditionFailure("image size mismatch") }
    return image
  }

  // MARK: Private

  private func rgbaBytes(from frame: Y4MFrame) -> [UInt8] {
    let header = frame.header
    let width = header.width
    let height = header.height
    var out = [UInt8](repeating: 255, count: width * height * 4)
    frame.planes.withUnsafeBufferPointer { planes in
      out.withUnsafeMutableBufferPointer { rgba in
        let chromaWidth = header.chromaWidth
        let cbStart = width * height
        let crStart = cbStart + chromaWidth * header.chromaHeight
        for row in 0..<height {
          for column in 0..<width {
            let y = planes[row * width + column]
            let c: (r: UInt8, g: UInt8, b: UInt8)
            if header.colorSpace.hasChroma {
              // Chroma sample covering this pixel (nearest, 2×2 block).
              let ci = (row / 2) * chromaWidth + column / 2
              c = rgb(y: y, cb: planes[cbStart + ci], cr: planes[crStart + ci])
            } else {
              c = grey(y: y)
            }
            let o = (row * width + column) * 4
            rgba[o] = c.r
            rgba[o + 1] = c.g
            rgba[o + 2] = c.b
          }
        }
      }
    }
    return out
  }

  private func standardRGB(y luma: UInt8, u: Double, v: Double) -> (r: UInt8, g: UInt8, b: UInt8) {
    var y = Double(luma)
    var u = u
    var v = v
    if range == .limited {
      y = (y - 16) * 255 / 219
      u = u * 255 / 224
      v = v * 255 / 224
    }
    return (
      Self.byte(y + 1.402 * v), Self.byte(y - 0.344136 * u - 0.714136 * v),
      Self.byte(y + 1.772 * u)
    )
  }

  private func kernelRGB(y luma: UInt8, u: Float, v: Float) -> (r: UInt8, g: UInt8, b: UInt8) {
    let y = Float(luma) / 255
    let r = y + 1.402 * v
    let g = y - 0.3441 * u - 0.7141 * v
    let b = y + 1.772 * u
    return (Self.unorm(r), Self.unorm(g), Self.unorm(b))
  }

  /// Clamps to 0…255 and rounds.
  private static func byte(_ x: Double) -> UInt8 {
    UInt8(min(255, max(0, x)).rounded(.toNearestOrAwayFromZero))
  }

  /// Clamps to 0…1 and rounds 255·x.
  private static func unorm(_ x: Float) -> UInt8 {
    UInt8((min(1, max(0, x)) * 255).rounded(.toNearestOrAwayFromZero))
  }
}
