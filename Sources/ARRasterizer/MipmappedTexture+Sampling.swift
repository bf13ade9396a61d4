import ARRenderCore
import ARScene

extension MipmappedTexture {
  /// Trilinear sample (RGB 0…1, alpha ignored) at texture coordinates `uv` for a sample whose
  /// neighbours along screen u and v are `footprintU` and `footprintV` away in uv.
  ///
  /// Level: ρ = the longer footprint in level-0 texels; ρ ≤ 1 reads level 0 bilinearly
  /// (magnification); otherwise λ = log₂ ρ is taken piecewise linearly between powers of two
  /// (ρ = 2ᵏ(1 + f) → level k + f: exact at the levels, no libm call, so every build and
  /// machine selects the same blend), and levels ⌊λ⌋ and ⌊λ⌋ + 1 are blended (clamped to the
  /// last level). Texel centres at `uv · size − ½`; `wrapU`/`wrapV` per axis.
  func sample(uv: SIMD2<Double>, footprintU: SIMD2<Double>, footprintV: SIMD2<Double>) -> SIMD3<
    Double
  > {
    let base = levels[0]
    let size = SIMD2(Double(base.width), Double(base.height))
    let a = footprintU * size
    let b = footprintV * size
    let rho = max((a * a).sum(), (b * b).sum()).squareRoot()
    guard rho.isFinite, rho > 1, levels.count > 1 else { return bilinear(level: 0, uv: uv) }
    let level = Int(rho.exponent)
    let fraction = rho / Double(sign: .plus, exponent: rho.exponent, significand: 1) - 1
    guard level < levels.count - 1 else { return bilinear(level: levels.count - 1, uv: uv) }
    let lower = bilinear(level: level, uv: uv)
    let upper = bilinear(level: level + 1, uv: uv)
    return lower * (1 - fraction) + upper * fraction
  }

  /// Bilinear RGB 0…1 of one level with the wrap modes; non-finite uv reads texel (0, 0).
  func bilinear(level: Int, uv: SIMD2<Double>) -> SIMD3<Double> {
    let texture = levels[level]
    let width = texture.width
    let height = texture.height
    guard uv.x.isFinite, uv.y.isFinite else { return texel(texture, 0, 0) }
    let (x0, x1, wx) = Self.taps(uv.x * Double(width) - 0.5, count: width, wrap: wrapU)
    let (y0, y1, wy) = Self.taps(uv.y * Double(height) - 0.5, count: height, wrap: wrapV)
    let top = texel(texture, x0, y0) * (1 - wx) + texel(texture, x1, y0) * wx
    let bottom = texel(texture, x0, y1) * (1 - wx) + texel(texture, x1, y1) * wx
    return top * (1 - wy) + bottom * wy
  }

  /// The two texel indices and the weight of the second for continuous texel position x.
  @inline(__always) static func taps(_ x: Double, count: Int, wrap: TextureWrap) -> (
    Int, Int, Double
  ) {
    switch wrap {
    case .clamp:
      let xc = min(max(x, 0), Double(count - 1))
      let i = Int(xc.rounded(.down))
      return (i, min(i + 1, count - 1), xc - Double(i))
    case .repeat, .mirroredRepeat:
      // Reduced by whole periods first (exact), so far-away coordinates keep their fraction.
      let period = Double(wrap == .repeat ? count : 2 * count)
      let reduced = x - (x / period).rounded(.down) * period
      let floor = reduced.rounded(.down)
      let modulus = wrap == .repeat ? count : 2 * count
      @inline(__always) func index(_ i: Int) -> Int {
        let k = ((i % modulus) + modulus) % modulus
        return k < count ? k : modulus - 1 - k
      }
      let i = Int(floor)
      return (index(i), index(i + 1), reduced - floor)
    }
  }

  @inline(__always) private func texel(_ texture: Texture, _ x: Int, _ y: Int) -> SIMD3<Double> {
    let i = (y * texture.width + x) * 4
    let p = texture.pixels
    return SIMD3(Double(p[i]), Double(p[i + 1]), Double(p[i + 2])) / 255
  }
}
