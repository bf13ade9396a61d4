/// The box-filter resolve of one output row: the mean of each pixel's N×N samples, clamped to
/// 0…1, to 8 bits rounding half up, ⌊255·x + ½⌋ (in Float), NaN → 0; alpha 255. Writes `width`
/// RGBA8 pixels (byte order R, G, B, A) to `pixels`.
///
/// `red`, `green`, `blue` hold the row's N sample rows of `columns` samples each (N = `scale`).
/// Only the pixels `range` (the whole row when nil) are written; each pixel's bytes depend on
/// its own samples alone.
func resolveRow(
  red: UnsafeMutableBufferPointer<Float>, green: UnsafeMutableBufferPointer<Float>,
  blue: UnsafeMutableBufferPointer<Float>, columns: Int, scale: Int, width: Int,
  pixels range: Range<Int>? = nil, into pixels: UnsafeMutableRawPointer
) {
  let weight = 255 / Float(scale * scale)
  let resolved = range ?? 0..<width
  var column = resolved.lowerBound
  if scale == 1, let r = red.baseAddress, let g = green.baseAddress, let b = blue.baseAddress {
    column = resolveSingleSampleRow(
      red: r, green: g, blue: b, columns: resolved, into: pixels)
  }
  while column < resolved.upperBound {
    // Lanes 0…2: red, green, blue (the others unused).
    var sum = FloatLanes.zero
    for sy in 0..<scale {
      let base = sy * columns + column * scale
      for sx in 0..<scale {
        sum[0] += red[base + sx]
        sum[1] += green[base + sx]
        sum[2] += blue[base + sx]
      }
    }
    let channels = bytes(sum * weight)
    let rgba = channels[0] | channels[1] << 8 | channels[2] << 16 | 0xFF00_0000
    pixels.storeBytes(of: rgba.littleEndian, toByteOffset: column * 4, as: UInt32.self)
    column += 1
  }
}

/// The N = 1 resolve of the first whole vectors of pixels `columns` of a row (`resolveRow`),
/// `laneCount` pixels per step, the same operations lane by lane; returns the first pixel not
/// done. Its own function: inside `resolveRow` the optimizer did not inline the sixteen-lane
/// loads and stores.
private func resolveSingleSampleRow(
  red r: UnsafeMutablePointer<Float>, green g: UnsafeMutablePointer<Float>,
  blue b: UnsafeMutablePointer<Float>, columns: Range<Int>, into pixels: UnsafeMutableRawPointer
) -> Int {
  var column = columns.lowerBound
  // Wrapping arithmetic: columns lie within a row, far from overflow (no checks per step).
  while column &+ laneCount <= columns.upperBound {
    let rgba = packedPixels(
      red: UnsafeRawPointer(r + column).loadUnaligned(as: FloatLanes.self),
      green: UnsafeRawPointer(g + column).loadUnaligned(as: FloatLanes.self),
      blue: UnsafeRawPointer(b + column).loadUnaligned(as: FloatLanes.self))
    // RGBA bytes in memory order: each pixel's UInt32 little-endian.
    (pixels + column &* 4).storeBytes(of: rgba.littleEndianLanes, as: UInt32Lanes.self)
    column &+= laneCount
  }
  return column
}

/// The RGBA8 pixel (as a word, red in the low byte) that `resolveRow` writes for one sample
/// per pixel of colour `color`: the same operations as its vector steps.
func resolvedPixel(_ color: SIMD3<Float>) -> UInt32 {
  packedPixels(
    red: FloatLanes(repeating: color.x), green: FloatLanes(repeating: color.y),
    blue: FloatLanes(repeating: color.z))[0]
}

/// The N = 1 resolve of `laneCount` pixels from their colours (`resolveRow`).
@_transparent private func packedPixels(red r: FloatLanes, green g: FloatLanes, blue b: FloatLanes)
  -> UInt32Lanes
{
  #if ARSIM_RASTERIZER_AVX2 || ARSIM_RASTERIZER_AVX512
    // `biasedBytes`: 0x4B00_00vv per lane; the shifts push 0x4B out of the word, and the
    // alpha byte covers it in red.
    let red = biasedBytes(r * 255)
    let green = biasedBytes(g * 255)
    let blue = biasedBytes(b * 255)
  #else
    let red = bytes(r * 255)
    let green = bytes(g * 255)
    let blue = bytes(b * 255)
  #endif
  return red | green &<< 8 | blue &<< 16 | 0xFF00_0000
}

/// ⌊clamp(x, 0, 255) + ½⌋ per lane, NaN → 0 (as IEEE maximum(NaN, 0) = 0).
///
/// The floor without a checked conversion (Swift's checked float-to-integer conversions do not
/// vectorize): below 2²⁴, y + 2²³ has ulp 1, so its mantissa holds y rounded to nearest, r;
/// ⌊y⌋ = r − 1 when r > y.
@_transparent private func bytes(_ x: FloatLanes) -> UInt32Lanes {
  let low = select(x .> 0, x, .zero)
  let y = select(low .< 255, low, FloatLanes(repeating: 255)) + 0.5
  let shifted = y + 0x1p23
  let rounded = shifted.bitPattern &- 0x4B00_0000  // 2²³'s bits
  return rounded &- select(shifted - 0x1p23 .> y, UInt32Lanes(repeating: 1), .zero)
}

#if ARSIM_RASTERIZER_AVX2 || ARSIM_RASTERIZER_AVX512
  /// `bytes(x)` plus 0x4B00_0000 (2²³'s bits) per lane, with the AVX builds' rounding
  /// instruction: y = clamp(x, 0, 255) + ½ lies in [½, 255½], ⌊y⌋ is exact, and ⌊y⌋ + 2²³ is a
  /// Float whose low mantissa byte is ⌊y⌋ (bits 0x4B00_00vv). The same value as `bytes` (whose
  /// correction step computes ⌊y⌋ from y rounded to nearest), in fewer instructions; the caller
  /// shifts or masks the 0x4B away.
  @_transparent private func biasedBytes(_ x: FloatLanes) -> UInt32Lanes {
    let low = select(x .> 0, x, .zero)
    let y = select(low .< 255, low, FloatLanes(repeating: 255)) + 0.5
    return (y.rounded(.down) + 0x1p23).bitPattern
  }
#endif

extension UInt32Lanes {
  /// Each lane in little-endian byte order (the identity on little-endian processors).
  @inline(__always) var littleEndianLanes: UInt32Lanes {
    #if _endian(little)
      return self
    #else
      var result = self
      for lane in 0..<laneCount { result[lane] = self[lane].littleEndian }
      return result
    #endif
  }
}
