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
    // Eight pixels per step: the same operations lane by lane, so the same bytes.
    while column + 8 <= width {
      let offset = column * MemoryLayout<Float>.stride
      let red = bytes(
        UnsafeRawPointer(r).loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self) * weight)
      let green = bytes(
        UnsafeRawPointer(g).loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self) * weight)
      let blue = bytes(
        UnsafeRawPointer(b).loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self) * weight)
      let rgba = red | green &<< 8 | blue &<< 16 | 0xFF00_0000
      // RGBA bytes in memory order: each pixel's UInt32 little-endian.
      pixels.storeBytes(
        of: rgba.littleEndianLanes, toByteOffset: column * 4, as: SIMD8<UInt32>.self)
      column += 8
    }
  }
  while column < width {
    // Lanes 0…2: red, green, blue (the others unused).
    var sum = SIMD8<Float>.zero
    for sy in 0..<scale {
      let base = sy * columns + column * scale
      for sx in 0..<scale {
        sum += SIMD8(red[base + sx], green[base + sx], blue[base + sx], 0, 0, 0, 0, 0)
      }
    }
    let channels = bytes(sum * weight)
    let rgba = channels[0] | channels[1] << 8 | channels[2] << 16 | 0xFF00_0000
    pixels.storeBytes(of: rgba.littleEndian, toByteOffset: column * 4, as: UInt32.self)
    column += 1
  }
}

/// ⌊clamp(x, 0, 255) + ½⌋ per lane, NaN → 0 (as IEEE maximum(NaN, 0) = 0).
///
/// The floor without a checked conversion (Swift's checked float-to-integer conversions do not
/// vectorize): below 2²⁴, y + 2²³ has ulp 1, so its mantissa holds y rounded to nearest, r;
/// ⌊y⌋ = r − 1 when r > y.
@_transparent private func bytes(_ x: SIMD8<Float>) -> SIMD8<UInt32> {
  let low = select(x .> 0, x, .zero)
  let y = select(low .< 255, low, SIMD8(repeating: 255)) + 0.5
  let shifted = y + 0x1p23
  let rounded = shifted.bitPattern &- (0x1p23 as Float).bitPattern
  return rounded &- select(shifted - 0x1p23 .> y, SIMD8(repeating: 1), .zero)
}

extension SIMD8<UInt32> {
  /// Each lane in little-endian byte order (the identity on little-endian processors).
  @inline(__always) var littleEndianLanes: SIMD8<UInt32> {
    #if _endian(little)
      return self
    #else
      var result = self
      for lane in 0..<8 { result[lane] = self[lane].littleEndian }
      return result
    #endif
  }
}
