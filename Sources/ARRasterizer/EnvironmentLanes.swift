import ARRenderCore

/// Eight samples of a row, for the environment's texture shading: one 512-bit register in
/// the AVX-512 build, two 256-bit ones in the AVX2 build.
typealias TextureLanes = SIMD8<Double>

/// What `PreparedFrame.environmentColor` computes for one triangle, constant along a run: the
/// scalar parts of its footprint formula, formed by the same operations.
struct EnvironmentRunConstants {
  let triangle: TrianglePrimitive
  let diffuse: SIMD3<Double>
  /// The ray's y (`direction(u:v:).y`), `(n · ∂d/∂u)`, `(n · ∂d/∂v)`, `n.y · dy`.
  let dy: Double
  let normalDotU: Double
  let normalDotV: Double
  let normalYTimesDy: Double
  let inverseFx: Double
  let minusInverseFy: Double
  let sampleSpacing: Double
}

extension PreparedFrame {
  /// `environmentColor` (unlit) for the eight samples at screen u `u` of one row, lane by
  /// lane with the same IEEE operations in the same order, so every lane's bits equal the
  /// scalar function's; `nil` when a lane's texture coordinates are not finite or not below
  /// 2⁴⁰ (the caller then shades those samples one at a time).
  @inline(__always) func environmentColors(
    _ c: EnvironmentRunConstants, texture: TextureView, u: TextureLanes
  ) -> (TextureLanes, TextureLanes, TextureLanes)? {
    typealias L = TextureLanes
    let triangle = c.triangle
    let n = triangle.planeNormal
    let dx = (u - intrinsics.cx) / intrinsics.fx
    // (n · d) with d = (dx, dy, −1): (n.x·dx + n.y·dy) + n.z·(−1).
    let nd = (n.x * dx + L(repeating: c.normalYTimesDy)) - L(repeating: n.z)
    let t = triangle.planeOffset / nd
    // uv at the point t·d: origin + g · (t·d − anchor), each dot product summed x, y, z.
    let a = triangle.anchor
    let rx = dx * t - a.x
    let ry = c.dy * t - a.y
    let rz = -t - a.z
    let gu = triangle.gradientU
    let gv = triangle.gradientV
    let uvx = triangle.uvOrigin.x + ((gu.x * rx + gu.y * ry) + gu.z * rz)
    let uvy = triangle.uvOrigin.y + ((gv.x * rx + gv.y * ry) + gv.z * rz)
    // Non-finite or huge (≥ 2⁴⁰: beyond the lanes' 32-bit texel indices) coordinates take
    // the scalar path.
    let inRange = (uvx.magnitude .< 0x1p40) .& (uvy.magnitude .< 0x1p40)
    guard inRange == SIMDMask(repeating: true) else { return nil }
    // Footprint: x_u = (∂d/∂u − d·(n·∂d/∂u)/(n·d))·(t·s), x_v likewise.
    let ku = c.normalDotU / nd
    let kv = c.normalDotV / nd
    let m = t * c.sampleSpacing
    let xux = (c.inverseFx - dx * ku) * m
    let xuy = (0 - c.dy * ku) * m
    let xuz = (0 - -ku) * m
    let xvx = (0 - dx * kv) * m
    let xvy = (c.minusInverseFy - c.dy * kv) * m
    let xvz = (0 - -kv) * m
    let puu = (gu.x * xux + gu.y * xuy) + gu.z * xuz
    let puv = (gv.x * xux + gv.y * xuy) + gv.z * xuz
    let pvu = (gu.x * xvx + gu.y * xvy) + gu.z * xvz
    let pvv = (gv.x * xvx + gv.y * xvy) + gv.z * xvz
    let texture0 = texture.layout[0]
    let width0 = Double(texture0.x)
    let height0 = Double(texture0.y)
    let au = puu * width0
    let av = puv * height0
    let bu = pvu * width0
    let bv = pvv * height0
    let sa = au * au + av * av
    let sb = bu * bu + bv * bv
    // Swift's max(x, y) is `y >= x ? y : x`.
    let rho = select(sb .>= sa, sb, sa).squareRoot()
    // Level and blend weight per lane, as `TextureView.sample`, chosen by masks (no loop
    // over the lanes).
    var lower = SIMD8<Int>(repeating: 0)
    var fraction = L(repeating: 0)
    if texture.levelCount > 1 {
      let trilinear = (rho .> 1) .& (rho .< .infinity)
      let bits = unsafeBitCast(rho, to: SIMD8<Int64>.self)
      let exponent = ((bits &>> 52) & 0x7FF) &- 1023
      let significand = unsafeBitCast(
        (bits & 0x000F_FFFF_FFFF_FFFF) | 0x3FF0_0000_0000_0000, to: L.self)
      let inside = trilinear .& (exponent .< SIMD8(repeating: Int64(texture.levelCount - 1)))
      let levels = select(
        inside, exponent,
        select(trilinear, SIMD8(repeating: Int64(texture.levelCount - 1)), SIMD8(repeating: 0)))
      lower = SIMD8<Int>(truncatingIfNeeded: levels)
      fraction = select(inside, significand - 1, L(repeating: 0))
    }
    let below = texture.bilinear(levels: lower, uvx: uvx, uvy: uvy)
    let red: L
    let green: L
    let blue: L
    if fraction == L(repeating: 0) {
      // No lane blends (magnified, or beyond the last level): b·1 + a·0 is b (the texels
      // are ≥ +0), so the second level is not read.
      (red, green, blue) = below
    } else {
      let upper = lower &+ SIMD8(repeating: 1)
      let above = texture.bilinear(
        levels: pointwiseMin(upper, SIMD8(repeating: texture.levelCount - 1)), uvx: uvx, uvy: uvy)
      let keep = 1 - fraction
      red = below.0 * keep + above.0 * fraction
      green = below.1 * keep + above.1 * fraction
      blue = below.2 * keep + above.2 * fraction
    }
    // base = diffuse × texel, clamped to 0…1 as `clamped` (`maximum` with 0, then `minimum`
    // with 1; −0 becomes +0).
    @inline(__always) func clamp(_ x: L) -> L {
      let low = select(x .> 0, x, L(repeating: 0))
      return select(low .< 1, low, L(repeating: 1))
    }
    return (clamp(c.diffuse.x * red), clamp(c.diffuse.y * green), clamp(c.diffuse.z * blue))
  }
}

extension TextureView {
  /// `bilinear(level:uv:)` for eight samples, each at its own level (finite uv), by the same
  /// floating-point operations as the scalar function: the taps in lanes (indices as 32-bit
  /// lanes), each texel read as one 32-bit load.
  @inline(__always) func bilinear(levels: SIMD8<Int>, uvx: TextureLanes, uvy: TextureLanes)
    -> (TextureLanes, TextureLanes, TextureLanes)
  {
    typealias L = TextureLanes
    typealias I = SIMD8<Int32>
    var widths = I()
    var heights = I()
    var offsets = I()
    if levels == SIMD8(repeating: levels[0]) {
      // Usually one level for the whole step.
      let shape = layout[levels[0]]
      widths = I(repeating: Int32(shape.x))
      heights = I(repeating: Int32(shape.y))
      offsets = I(repeating: Int32(shape.z))
    } else {
      for lane in 0..<8 {
        let shape = layout[levels[lane]]
        widths[lane] = Int32(shape.x)
        heights[lane] = Int32(shape.y)
        offsets[lane] = Int32(shape.z)
      }
    }
    let width = widths.asDouble
    let height = heights.asDouble
    let (x0, x1, wx) = Self.taps(
      uvx * width - 0.5, counts: widths, countsAsDouble: width, wrap: wrapU)
    let (y0, y1, wy) = Self.taps(
      uvy * height - 0.5, counts: heights, countsAsDouble: height, wrap: wrapV)
    // Byte offsets of the four taps: the level's offset + (y · width + x) · 4 (all textures
    // together hold at most 64 Mi texels: within Int32).
    let row0 = y0 &* widths
    let row1 = y1 &* widths
    @inline(__always) func gather(_ row: I, _ x: I) -> SIMD8<UInt32> {
      let index = offsets &+ (row &+ x) &* 4
      let raw = UnsafeRawPointer(texels)
      @inline(__always) func load(_ lane: Int) -> UInt32 {
        raw.loadUnaligned(fromByteOffset: Int(index[lane]), as: UInt32.self)
      }
      return SIMD8(
        load(0), load(1), load(2), load(3), load(4), load(5), load(6), load(7))
    }
    let t00 = gather(row0, x0)
    let t10 = gather(row0, x1)
    let t01 = gather(row1, x0)
    let t11 = gather(row1, x1)
    let keepX = 1 - wx
    let keepY = 1 - wy
    @inline(__always) func blend(_ shift: UInt32) -> L {
      @inline(__always) func channel(_ texel: SIMD8<UInt32>) -> L {
        SIMD8<Int32>(truncatingIfNeeded: (texel &>> shift) & 0xFF).asDouble
      }
      let top = channel(t00) * keepX + channel(t10) * wx
      let bottom = channel(t01) * keepX + channel(t11) * wx
      return (top * keepY + bottom * wy) / 255
    }
    // RGBA8 in memory: red is the lowest byte of the little-endian word.
    return (blend(0), blend(8), blend(16))
  }

  /// `taps(_:count:wrap:)` for eight lanes: the same floating-point steps, the index
  /// wrapping in 32-bit lanes.
  @inline(__always) static func taps(
    _ x: TextureLanes, counts: SIMD8<Int32>, countsAsDouble: TextureLanes, wrap: TextureWrap
  ) -> (SIMD8<Int32>, SIMD8<Int32>, TextureLanes) {
    typealias L = TextureLanes
    typealias I = SIMD8<Int32>
    switch wrap {
    case .clamp:
      // min(max(x, 0), count − 1) with Swift's max (`y >= x ? y : x`) and min (`y < x ? y : x`).
      let last = countsAsDouble - 1
      let low = select(L(repeating: 0) .>= x, L(repeating: 0), x)
      let xc = select(last .< low, last, low)
      let floor = rounded(xc, .down)
      let i = floor.wholeNumbers
      let next = i &+ 1
      let lastIndex = counts &- 1
      return (i, select(lastIndex .< next, lastIndex, next), xc - floor)
    case .repeat, .mirroredRepeat:
      let modulus = wrap == .repeat ? counts : counts &* 2
      let period = wrap == .repeat ? countsAsDouble : modulus.asDouble
      let reduced = x - rounded(x / period, .down) * period
      let floor = rounded(reduced, .down)
      var i = floor.wholeNumbers
      i = select(i .>= modulus, i &- modulus, i)
      i = select(i .< 0, i &+ modulus, i)
      var j = i &+ 1
      j = select(j .>= modulus, j &- modulus, j)
      let mirror = modulus &- 1
      return (
        select(i .< counts, i, mirror &- i), select(j .< counts, j, mirror &- j), reduced - floor
      )
    }
  }
}

extension SIMD8 where Scalar == Int32 {
  /// Each lane as a Double (exact).
  @inline(__always) var asDouble: SIMD8<Double> {
    SIMD8<Double>(
      Double(self[0]), Double(self[1]), Double(self[2]), Double(self[3]), Double(self[4]),
      Double(self[5]), Double(self[6]), Double(self[7]))
  }
}

extension SIMD8 where Scalar == Double {
  /// Lanes holding whole numbers of magnitude below 2³¹ as Int32 lanes: adding 1.5 · 2⁵² (exact
  /// for such values) leaves the number in the low bits of the significand.
  @inline(__always) var wholeNumbers: SIMD8<Int32> {
    let shifted = self + 0x1.8p52
    return SIMD8<Int32>(truncatingIfNeeded: unsafeBitCast(shifted, to: SIMD8<Int64>.self))
  }
}
