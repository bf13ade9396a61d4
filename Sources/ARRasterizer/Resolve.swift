/// The box-filter resolve of one output row: the mean of each pixel's N×N samples, clamped to
/// 0…1, to 8 bits rounding half up, ⌊255·x + ½⌋ (in Float), NaN → 0; alpha 255. Writes `width`
/// RGBA8 pixels (byte order R, G, B, A) to `pixels`.
///
/// `red`, `green`, `blue` hold the row's N sample rows of `columns` samples each (N = `scale`).
func resolveRow(
  red: UnsafeMutableBufferPointer<Float>, green: UnsafeMutableBufferPointer<Float>,
  blue: UnsafeMutableBufferPointer<Float>, columns: Int, scale: Int, width: Int,
  into pixels: UnsafeMutableRawPointer
) {
  let weight = 255 / Float(scale * scale)
  var column = 0
  if scale == 1, let r = red.baseAddress, let g = green.baseAddress, let b = blue.baseAddress {
    column = resolveSingleSampleRow(red: r, green: g, blue: b, width: width, into: pixels)
  }
  while column < width {
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

/// The N = 1 resolve of the first whole vectors of a row (`resolveRow`), `laneCount` pixels per
/// step, the same operations lane by lane; returns the pixels done. Its own function: inside
/// `resolveRow` the optimizer did not inline the sixteen-lane loads and stores.
private func resolveSingleSampleRow(
  red r: UnsafeMutablePointer<Float>, green g: UnsafeMutablePointer<Float>,
  blue b: UnsafeMutablePointer<Float>, width: Int, into pixels: UnsafeMutableRawPointer
) -> Int {
  var column = 0
  while column + laneCount <= width {
    #if ARSIM_RASTERIZER_AVX2 || ARSIM_RASTERIZER_AVX512
      // `biasedBytes`: 0x4B00_00vv per lane; the shifts push 0x4B out of the word, and the
      // alpha byte covers it in red.
      let red = biasedBytes(UnsafeRawPointer(r + column).loadUnaligned(as: FloatLanes.self) * 255)
      let green = biasedBytes(
        UnsafeRawPointer(g + column).loadUnaligned(as: FloatLanes.self) * 255)
      let blue = biasedBytes(
        UnsafeRawPointer(b + column).loadUnaligned(as: FloatLanes.self) * 255)
    #else
      let red = bytes(UnsafeRawPointer(r + column).loadUnaligned(as: FloatLanes.self) * 255)
      let green = bytes(UnsafeRawPointer(g + column).loadUnaligned(as: FloatLanes.self) * 255)
      let blue = bytes(UnsafeRawPointer(b + column).loadUnaligned(as: FloatLanes.self) * 255)
    #endif
    let rgba = red | green &<< 8 | blue &<< 16 | 0xFF00_0000
    // RGBA bytes in memory order: each pixel's UInt32 little-endian.
    (pixels + column * 4).storeBytes(of: rgba.littleEndianLanes, as: UInt32Lanes.self)
    column += laneCount
  }
  return column
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
