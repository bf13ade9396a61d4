import ARRenderCore
import ARScene

/// A mip-mapped texture's levels by pointer, for the shading loop (no reference counting per
/// sample); valid while its texture lives (`MipmappedTexture.view`).
struct TextureView: @unchecked Sendable {
  // @unchecked: read-only pointers into a chain that is never written after it is built.
  /// Every level's RGBA8 texels, level 0 first (`MipmappedTexture.texels`).
  let texels: UnsafePointer<UInt8>
  /// Per level: width, height, byte offset into `texels`.
  let layout: UnsafePointer<SIMD3<Int>>
  let levelCount: Int
  let wrapU: TextureWrap
  let wrapV: TextureWrap

  /// Trilinear sample (RGB 0…1, alpha ignored) at texture coordinates `uv` for a sample whose
  /// neighbours along screen u and v are `footprintU` and `footprintV` away in uv.
  ///
  /// Level: ρ = the longer footprint in level-0 texels; ρ ≤ 1 reads level 0 bilinearly
  /// (magnification); otherwise λ = log₂ ρ is taken piecewise linearly between powers of two
  /// (ρ = 2ᵏ(1 + f) → level k + f: exact at the levels, no libm call, so every build and
  /// machine selects the same blend), and levels ⌊λ⌋ and ⌊λ⌋ + 1 are blended (clamped to the
  /// last level). Texel centres at `uv · size − ½`; `wrapU`/`wrapV` per axis.
  @inline(__always) func sample(
    uv: SIMD2<Double>, footprintU: SIMD2<Double>, footprintV: SIMD2<Double>
  ) -> SIMD3<Double> {
    let base = layout[0]
    let size = SIMD2(Double(base.x), Double(base.y))
    let a = footprintU * size
    let b = footprintV * size
    let rho = max((a * a).sum(), (b * b).sum()).squareRoot()
    guard rho.isFinite, rho > 1, levelCount > 1 else { return bilinear(level: 0, uv: uv) }
    let level = Int(rho.exponent)
    let fraction = rho / Double(sign: .plus, exponent: rho.exponent, significand: 1) - 1
    guard level < levelCount - 1 else { return bilinear(level: levelCount - 1, uv: uv) }
    let lower = bilinear(level: level, uv: uv)
    let upper = bilinear(level: level + 1, uv: uv)
    return lower * (1 - fraction) + upper * fraction
  }

  /// Bilinear RGB 0…1 of one level with the wrap modes; non-finite uv reads texel (0, 0).
  @inline(__always) func bilinear(level: Int, uv: SIMD2<Double>) -> SIMD3<Double> {
    let shape = layout[level]
    let width = shape.x
    let height = shape.y
    let base = texels + shape.z
    @inline(__always) func texel(_ x: Int, _ y: Int) -> SIMD3<Double> {
      let p = base + (y * width + x) * 4
      return SIMD3(Double(p[0]), Double(p[1]), Double(p[2]))
    }
    guard uv.x.isFinite, uv.y.isFinite else { return texel(0, 0) / 255 }
    let (x0, x1, wx) = Self.taps(uv.x * Double(width) - 0.5, count: width, wrap: wrapU)
    let (y0, y1, wy) = Self.taps(uv.y * Double(height) - 0.5, count: height, wrap: wrapV)
    let top = texel(x0, y0) * (1 - wx) + texel(x1, y0) * wx
    let bottom = texel(x0, y1) * (1 - wx) + texel(x1, y1) * wx
    return (top * (1 - wy) + bottom * wy) / 255
  }

  /// The two texel indices and the weight of the second for continuous texel position x.
  @inline(__always) static func taps(_ x: Double, count: Int, wrap: TextureWrap) -> (
    Int, Int, Double
  ) {
    switch wrap {
    case .clamp:
      let xc = min(max(x, 0), Double(count - 1))
      let floor = roundedDown(xc)
      let i = Int(floor)
      return (i, min(i + 1, count - 1), xc - floor)
    case .repeat, .mirroredRepeat:
      // Reduced by whole periods first (exact), so far-away coordinates keep their fraction.
      let modulus = wrap == .repeat ? count : 2 * count
      let period = Double(modulus)
      let reduced = x - roundedDown(x / period) * period
      let floor = roundedDown(reduced)
      // 0 ≤ floor ≤ period (rounding may reach the period itself).
      var i = Int(floor)
      if i >= modulus { i -= modulus }
      if i < 0 { i += modulus }
      var j = i + 1
      if j >= modulus { j -= modulus }
      @inline(__always) func mirrored(_ k: Int) -> Int { k < count ? k : modulus - 1 - k }
      return (mirrored(i), mirrored(j), reduced - floor)
    }
  }
}

extension MipmappedTexture {
  /// The texture's levels by pointer: valid while the texture (its chain's storage) lives;
  /// `PreparedFrame` keeps its textures for the frame and takes their views once.
  var view: TextureView {
    guard let texels = storage.texels.baseAddress, let layout = storage.layout.baseAddress
    else { preconditionFailure("a mip chain always has a level") }
    return TextureView(
      texels: texels, layout: layout, levelCount: storage.layout.count, wrapU: wrapU,
      wrapV: wrapV)
  }
}
