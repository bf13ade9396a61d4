import ARRenderCore
import ARScene
import CLaneMath

/// The unlit texture shading of one run of samples (one environment triangle, one sample row)
/// in Float lanes (`FloatLanes`: eight samples per step, sixteen in the AVX-512 build).
///
/// Along a sample row the texture coordinates are a projective function of the sample column
/// k counted from the run's first sample: uv(k) = uv(0) + m·k / (1 + e·k). Their derivatives
/// per sample, the footprint, follow in closed form: m / (1 + e·k)² along the row and
/// (a + b·k) / (1 + e·k)² to the next row. The constants are formed in Double once per run
/// (from the triangle's plane and uv gradients, as `PreparedFrame.environmentColor`), each
/// sample's uv, footprint, level and taps in Float. Each lane's value depends only on its
/// own column and the run's first one, so the lane width changes no bit.
struct EnvironmentRunSampler {
  /// uv at the run's first sample, reduced by whole periods of the wrap mode.
  let start: SIMD2<Float>
  /// m: uv(k) − uv(0) = m·k / (1 + e·k).
  let slope: SIMD2<Float>
  /// e.
  let perspective: Float
  /// |m · size|²: the squared footprint along the row at k = 0, in level-0 texels.
  let alongSquared: Float
  /// a, b: the footprint to the next sample row is (a + b·k) / (1 + e·k)², in level-0
  /// texels per axis.
  let acrossStart: SIMD2<Float>
  let acrossSlope: SIMD2<Float>
  /// The base colour over 255 (texels are 0…255).
  let scale: SIMD3<Float>

  /// The run of `count` samples whose first is at screen u `uStart` on the sample row whose
  /// ray has y `dy`; the next sample is `uStep` further along u, the next row `dyStep` further
  /// along the ray's y. `nil` when Float would not carry the run's texel positions to a small
  /// fraction of a texel (non-finite constants, texture coordinates changing by 256 or more
  /// along the run, clamped coordinates beyond ±256): the Double lanes then shade it.
  /// `triangle` is read by address (a copy per run was a memmove); `texture` gives the
  /// level-0 size and the wrap modes.
  init?(
    triangle pointer: UnsafePointer<TrianglePrimitive>, diffuse: SIMD3<Double>,
    texture: TextureShape, intrinsics: CameraIntrinsics, dy: Double, uStart: Double,
    uStep: Double, dyStep: Double, count: Int
  ) {
    let triangle = pointer.pointee
    let n = triangle.planeNormal
    let h = triangle.planeOffset
    let gu = triangle.gradientU
    let gv = triangle.gradientV
    // Ray d(k) = (dx0 + step·k, dy, −1); n·d and the uv gradients' g·d are linear in k.
    let dx0 = (uStart - intrinsics.cx) / intrinsics.fx
    let step = uStep / intrinsics.fx
    let d0 = (n.x * dx0 + n.y * dy) - n.z
    let dk = n.x * step
    let u0 = (gu.x * dx0 + gu.y * dy) - gu.z
    let uk = gu.x * step
    let v0 = (gv.x * dx0 + gv.y * dy) - gv.z
    let vk = gv.x * step
    // uv = origin + g·(t·d − anchor) with t = h / (n·d).
    let uv0 = triangle.uv(at: SIMD3(dx0, dy, -1) * (h / d0))
    let inverse = h / (d0 * d0)
    let m = SIMD2(uk * d0 - u0 * dk, vk * d0 - v0 * dk) * inverse
    let e = dk / d0
    let size = texture.size
    let across = inverse * dyStep
    let a = SIMD2(gu.y * d0 - u0 * n.y, gv.y * d0 - v0 * n.y) * across * size
    let b = SIMD2(gu.y * dk - uk * n.y, gv.y * dk - vk * n.y) * across * size
    let last = Double(count - 1)
    let endDenominator = 1 + e * last
    // 1 + e·k keeps its sign along a covered run (t is finite and positive there).
    guard endDenominator > 0, e.isFinite else { return nil }
    let change = m * (last / endDenominator)
    // Finite: x · 0 is 0 (NaN for infinities and NaN).
    let values = SIMD8(uv0.x, uv0.y, m.x, m.y, a.x, a.y, b.x, b.y)
    guard !(values * 0 .!= 0).anyLane(), change.x.magnitude < 256, change.y.magnitude < 256
    else { return nil }
    @inline(__always) func reduced(_ x: Double, _ wrap: TextureWrap) -> Double? {
      switch wrap {
      case .repeat: return x - roundedDown(x)
      case .mirroredRepeat: return x - 2 * roundedDown(x / 2)
      case .clamp: return x.magnitude < 256 ? x : nil
      }
    }
    guard let startU = reduced(uv0.x, texture.wrapU), let startV = reduced(uv0.y, texture.wrapV)
    else { return nil }
    start = SIMD2(Float(startU), Float(startV))
    slope = SIMD2(Float(m.x), Float(m.y))
    perspective = Float(e)
    let along = m * size
    alongSquared = Float((along * along).sum())
    acrossStart = SIMD2(Float(a.x), Float(a.y))
    acrossSlope = SIMD2(Float(b.x), Float(b.y))
    scale = SIMD3<Float>(diffuse / 255)
  }
}

/// What `EnvironmentRunSampler` reads of a texture: its level-0 size in texels and its wrap
/// modes (`MipmappedTexture`).
struct TextureShape: Sendable {
  let size: SIMD2<Double>
  let wrapU: TextureWrap
  let wrapV: TextureWrap

  init(_ texture: MipmappedTexture) {
    let base = texture.layout.first ?? SIMD3(1, 1, 0)
    size = SIMD2(Double(base.x), Double(base.y))
    (wrapU, wrapV) = (texture.wrapU, texture.wrapV)
  }
}

/// The constants of `EnvironmentRunSampler`s lane by lane, so that one vector step shades the
/// samples of several runs: each lane computes with its own run's constants and column, the
/// same values as when its run is shaded alone, so it gets the same bits.
struct EnvironmentSamplerLanes {
  var startX = FloatLanes()
  var startY = FloatLanes()
  var slopeX = FloatLanes()
  var slopeY = FloatLanes()
  var perspective = FloatLanes()
  var alongSquared = FloatLanes()
  var acrossStartX = FloatLanes()
  var acrossStartY = FloatLanes()
  var acrossSlopeX = FloatLanes()
  var acrossSlopeY = FloatLanes()
  var scaleRed = FloatLanes()
  var scaleGreen = FloatLanes()
  var scaleBlue = FloatLanes()

  /// `sampler`'s constants in the lanes from `firstLane` on (the others kept).
  @inline(__always) mutating func take(_ sampler: EnvironmentRunSampler, fromLane firstLane: Int) {
    let taken = FloatLanes.laneIndices .>= Float(firstLane)
    @inline(__always) func blend(_ lanes: inout FloatLanes, _ value: Float) {
      lanes = select(taken, FloatLanes(repeating: value), lanes)
    }
    blend(&startX, sampler.start.x)
    blend(&startY, sampler.start.y)
    blend(&slopeX, sampler.slope.x)
    blend(&slopeY, sampler.slope.y)
    blend(&perspective, sampler.perspective)
    blend(&alongSquared, sampler.alongSquared)
    blend(&acrossStartX, sampler.acrossStart.x)
    blend(&acrossStartY, sampler.acrossStart.y)
    blend(&acrossSlopeX, sampler.acrossSlope.x)
    blend(&acrossSlopeY, sampler.acrossSlope.y)
    blend(&scaleRed, sampler.scale.x)
    blend(&scaleGreen, sampler.scale.y)
    blend(&scaleBlue, sampler.scale.z)
  }

  /// Red, green, blue (0…1, base colour × trilinear texel) of the samples at columns `k`,
  /// each counted from its lane's run's first sample (and at most that run's last).
  @inline(__always) func colors(k: FloatLanes, texture: TextureView) -> (
    FloatLanes, FloatLanes, FloatLanes
  ) {
    typealias L = FloatLanes
    let q = 1 / (1 + perspective * k)
    let kq = k * q
    let uvx = startX + slopeX * kq
    let uvy = startY + slopeY * kq
    let ax = acrossStartX + acrossSlopeX * k
    let ay = acrossStartY + acrossSlopeY * k
    let acrossSquared = ax * ax + ay * ay
    let longer = select(acrossSquared .> alongSquared, acrossSquared, alongSquared)
    let rho = squareRoots(longer) * (q * q)
    // Level k + fraction f for ρ = 2ᵏ(1 + f) (magnified: level 0; beyond the chain: the
    // last), as whole numbers in Float lanes: integer lane comparisons compile to lane-by-lane
    // loops here, Float ones to one instruction.
    var lower = L(repeating: 0)
    var fraction = L(repeating: 0)
    if texture.levelCount > 1 {
      let last = L(repeating: Float(texture.levelCount - 1))
      let trilinear = (rho .> 1) .& (rho .< .infinity)
      let exponent =
        smallAsFloat(unsafeBitCast((rho.bitPattern &>> 23) & 0xFF, to: IntLanes.self)) - 127
      let significand = L(bitPattern: (rho.bitPattern & 0x007F_FFFF) | 0x3F80_0000)
      let inside = trilinear .& (exponent .< last)
      lower = select(inside, exponent, select(trilinear, last, L(repeating: 0)))
      fraction = select(inside, significand - 1, L(repeating: 0))
    }
    var (red, green, blue) = texture.bilinear(levels: lower, uvx: uvx, uvy: uvy)
    if (fraction .> 0).anyLane() {
      let upper = texture.bilinear(levels: lower + 1, uvx: uvx, uvy: uvy)
      red += (upper.0 - red) * fraction
      green += (upper.1 - green) * fraction
      blue += (upper.2 - blue) * fraction
    }
    // Clamped to 0…1, spelled out three times: as a nested function the optimizer left it out
    // of line in the AVX-512 build (a call per channel, its lanes passed in 128-bit pieces).
    let zero = L(repeating: 0)
    let one = L(repeating: 1)
    let r = red * scaleRed
    let g = green * scaleGreen
    let b = blue * scaleBlue
    let r0 = select(r .> 0, r, zero)
    let g0 = select(g .> 0, g, zero)
    let b0 = select(b .> 0, b, zero)
    return (select(r0 .< 1, r0, one), select(g0 .< 1, g0, one), select(b0 .< 1, b0, one))
  }
}

extension TextureView {
  /// Bilinear RGB (0…255) of `FloatLanes` samples, each at its own level (`levels`: whole
  /// numbers ≥ 0; beyond the chain, the last), at texture coordinates of magnitude below
  /// 2⁸ + 2. Texel indices are clamped into the level, so no input reads outside the texels.
  @inline(__always) func bilinear(levels: FloatLanes, uvx: FloatLanes, uvy: FloatLanes)
    -> (FloatLanes, FloatLanes, FloatLanes)
  {
    typealias L = FloatLanes
    var widths = IntLanes()
    var offsets = IntLanes()
    var width = L()
    var height = L()
    let lastLevel = L(repeating: Float(levelCount - 1))
    let levels = select(levels .< lastLevel, levels, lastLevel)
    if !(levels .!= levels[0]).anyLane() {
      // Usually one level for the whole step.
      let shape = layout[Int(levels[0])]
      widths = IntLanes(repeating: Int32(shape.x))
      offsets = IntLanes(repeating: Int32(shape.z))
      width = L(repeating: Float(shape.x))
      height = L(repeating: Float(shape.y))
    } else {
      for lane in 0..<laneCount {
        let shape = layout[Int(levels[lane])]
        widths[lane] = Int32(shape.x)
        offsets[lane] = Int32(shape.z)
        width[lane] = Float(shape.x)
        height[lane] = Float(shape.y)
      }
    }
    let (x0, x1, wx, adjacent) = Self.taps(uvx * width - 0.5, count: width, wrap: wrapU)
    let (y0, y1, wy, _) = Self.taps(uvy * height - 0.5, count: height, wrap: wrapV)
    // Byte offsets: the level's offset + (y · width + x) · 4 (at most 64 Mi texels in all).
    let row0 = offsets &+ (y0 &* widths) &* 4
    let row1 = offsets &+ (y1 &* widths) &* 4
    let raw = UnsafeRawPointer(texels)
    @inline(__always) func gather(_ index: IntLanes) -> UInt32Lanes {
      var texel = UInt32Lanes()
      for lane in 0..<laneCount {
        texel[lane] = raw.loadUnaligned(fromByteOffset: Int(index[lane]), as: UInt32.self)
      }
      return texel
    }
    /// The texels at `index` and the next ones in memory, one 64-bit load per lane.
    @inline(__always) func gatherPairs(_ index: IntLanes) -> (UInt32Lanes, UInt32Lanes) {
      var first = UInt32Lanes()
      var second = UInt32Lanes()
      for lane in 0..<laneCount {
        let word = raw.loadUnaligned(fromByteOffset: Int(index[lane]), as: UInt64.self)
        first[lane] = UInt32(truncatingIfNeeded: word)
        second[lane] = UInt32(truncatingIfNeeded: word &>> 32)
      }
      return (first, second)
    }
    let column0 = x0 &* 4
    let t00: UInt32Lanes
    let t10: UInt32Lanes
    let t01: UInt32Lanes
    let t11: UInt32Lanes
    if adjacent {
      // Every lane's second column follows its first in the row: two loads per level.
      (t00, t10) = gatherPairs(row0 &+ column0)
      (t01, t11) = gatherPairs(row1 &+ column0)
    } else {
      let column1 = x1 &* 4
      t00 = gather(row0 &+ column0)
      t10 = gather(row0 &+ column1)
      t01 = gather(row1 &+ column0)
      t11 = gather(row1 &+ column1)
    }
    @inline(__always) func blend(_ shift: UInt32) -> L {
      // A byte as a Float: 2²³ + byte has the byte in its low significand bits.
      @inline(__always) func channel(_ texel: UInt32Lanes) -> L {
        L(bitPattern: ((texel &>> shift) & 0xFF) | 0x4B00_0000) - 0x1p23
      }
      let c00 = channel(t00)
      let c01 = channel(t01)
      let top = c00 + (channel(t10) - c00) * wx
      let bottom = c01 + (channel(t11) - c01) * wx
      return top + (bottom - top) * wy
    }
    // RGBA8 in memory: red is the lowest byte of the little-endian word.
    return (blend(0), blend(8), blend(16))
  }

  /// The two texel indices (each within 0 ..< count), the weight of the second, and whether
  /// every lane's second index is its first + 1, for continuous texel positions `x`
  /// (|x| < 2²²) and texel counts `count` (whole numbers ≥ 1). Indices are whole numbers in
  /// Float lanes until the end (see `EnvironmentRunSampler.colors`).
  ///
  /// Transparent: marked `@inline(__always)`, it stayed out of line in the AVX2 build, four
  /// calls per level with its lanes through the stack (7 % of B5 on a Zen 1); inlined, B5
  /// takes about 5 % less CPU, the same bits (`bilinear` is then the call, twice a step).
  @_transparent static func taps(_ x: FloatLanes, count: FloatLanes, wrap: TextureWrap) -> (
    IntLanes, IntLanes, FloatLanes, Bool
  ) {
    typealias L = FloatLanes
    let zero = L(repeating: 0)
    let last = count - 1
    // Clamping into 0 … count − 1 is spelled out where it is needed: as a nested function the
    // optimizer left it out of line in the AVX-512 build (its lanes passed in 128-bit pieces).
    /// Clamped whole numbers as Int32 lanes: 2²³ + i has i in its significand.
    @inline(__always) func index(_ i: L) -> IntLanes {
      unsafeBitCast((i + 0x1p23).bitPattern, to: IntLanes.self) &- 0x4B00_0000
    }
    let first: L
    let second: L
    let weight: L
    switch wrap {
    case .clamp:
      let low = select(x .> 0, x, zero)
      let xc = select(low .< last, low, last)
      let floor = floorLanes(xc)
      let next = floor + 1
      (first, second, weight) = (floor, select(next .< last, next, last), xc - floor)
    case .repeat, .mirroredRepeat:
      let modulus = wrap == .repeat ? count : count * 2
      let reduced = x - floorLanes(x / modulus) * modulus
      let floor = floorLanes(reduced)
      var i = select(floor .>= modulus, floor - modulus, floor)
      i = select(i .< 0, i + modulus, i)
      var j = i + 1
      j = select(j .>= modulus, j - modulus, j)
      let mirror = modulus - 1
      let i1 = select(i .< count, i, mirror - i)
      let j1 = select(j .< count, j, mirror - j)
      let i2 = select(i1 .> 0, i1, zero)
      let j2 = select(j1 .> 0, j1, zero)
      first = select(i2 .< last, i2, last)
      second = select(j2 .< last, j2, last)
      weight = reduced - floor
    }
    return (index(first), index(second), weight, !(second .!= first + 1).anyLane())
  }
}

/// ⌊x⌋ lane by lane for |x| < 2²² (other values stay finite or NaN): adding 1.5 · 2²³ rounds
/// to the nearest whole number, one step down where that rounded up. No rounding instruction
/// or libm call, so every build computes the same bits.
@inline(__always) func floorLanes(_ x: FloatLanes) -> FloatLanes {
  let nearest = (x + 0x1.8p23) - 0x1.8p23
  return select(nearest .> x, nearest - 1, nearest)
}

/// Lanes in 0 ..< 2²³ as Float (exact): 2²³ + x has x in its significand.
@inline(__always) func smallAsFloat(_ x: IntLanes) -> FloatLanes {
  FloatLanes(bitPattern: unsafeBitCast(x, to: UInt32Lanes.self) | 0x4B00_0000) - 0x1p23
}

/// The square root of each lane, correctly rounded (the bits of `Float.squareRoot()`), in one
/// vector instruction (`CLaneMath`). `FloatLanes.squareRoot()` compiles here to one scalar
/// square root per lane, each behind a branch to libm's `sqrtf` for negative inputs.
@inline(__always) func squareRoots(_ x: FloatLanes) -> FloatLanes {
  var lanes = x
  withUnsafeMutableBytes(of: &lanes) { raw in
    guard let base = raw.baseAddress?.assumingMemoryBound(to: Float.self) else { return }
    #if ARSIM_RASTERIZER_AVX512
      arsim_square_roots16(base)
    #else
      arsim_square_roots8(base)
    #endif
  }
  return lanes
}
