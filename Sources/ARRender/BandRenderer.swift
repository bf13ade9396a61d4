/// Renders one band of output rows at a time into its own sample buffers (one per worker).
///
/// Sample grid: N×N samples per pixel; sample column sx sits at screen u = (sx + ½)/N − ½ and
/// sample row sy at v = (sy + ½)/N − ½, so N = 1 samples exactly the pixel centres. Every value
/// of a sample depends only on its own (u, v), never on the band, which keeps the output
/// independent of the thread count.
struct BandRenderer {
  let frame: PreparedFrame
  let background: BackgroundSampler
  let width: Int
  let height: Int
  let scale: Int
  let bandRows: Int
  let writesDepth: Bool
  /// Per sample of the band: depth (metres along −Z, +∞ = empty), visible primitive
  /// (−1 = none; spheres first, then triangles offset by the sphere count).
  var depths: [Double]
  var ids: [Int32]
  /// Colour 0…1 of the N sample rows of one output row (shading, blending and the resolve run
  /// one output row at a time, so this stays in the first-level cache).
  var colors: [SIMD3<Double>]

  init(
    frame: PreparedFrame, background: BackgroundSampler, width: Int, height: Int, scale: Int,
    bandRows: Int, writesDepth: Bool
  ) {
    self.frame = frame
    self.background = background
    self.width = width
    self.height = height
    self.scale = scale
    self.bandRows = bandRows
    self.writesDepth = writesDepth
    let samples = width * scale * bandRows * scale
    depths = [Double](repeating: .infinity, count: samples)
    ids = [Int32](repeating: -1, count: samples)
    colors = [SIMD3<Double>](repeating: .zero, count: width * scale * scale)
  }

  /// Renders output rows `firstRow ..< firstRow + bandRows` (clipped to the image).
  mutating func render(firstRow: Int, into output: BandOutput) {
    let rows = min(bandRows, height - firstRow)
    let grid = SampleGrid(
      scale: scale, columns: width * scale, firstRow: firstRow * scale,
      rowCount: rows * scale)
    let frame = self.frame
    let background = self.background
    let scale = self.scale
    let width = self.width
    let hasTransparent = !frame.transparent.isEmpty
    depths.withUnsafeMutableBufferPointer { depths in
      ids.withUnsafeMutableBufferPointer { ids in
        colors.withUnsafeMutableBufferPointer { colors in
          let buffers = SampleBuffers(depths: depths, ids: ids, colors: colors)
          buffers.clear(count: grid.columns * grid.rowCount)
          frame.rasterizeOpaque(grid: grid, into: buffers)
          // Per output row: shade its N sample rows, blend the transparent primitives over
          // them, then the box-filter resolve: mean of the N×N samples, clamp, round to
          // 8 bits, half up: ⌊255·x + ½⌋ on the clamped mean.
          let weight = 255 / Double(scale * scale)
          guard let pixelBytes = UnsafeMutableRawPointer(output.pixels.baseAddress) else { return }
          let samplesPerRow = grid.columns * scale
          for row in 0..<rows {
            let rowGrid = SampleGrid(
              scale: scale, columns: grid.columns, firstRow: (firstRow + row) * scale,
              rowCount: scale)
            let rowBuffers = SampleBuffers(
              depths: UnsafeMutableBufferPointer(
                rebasing: depths[(row * samplesPerRow)..<((row + 1) * samplesPerRow)]),
              ids: UnsafeMutableBufferPointer(
                rebasing: ids[(row * samplesPerRow)..<((row + 1) * samplesPerRow)]),
              colors: colors)
            frame.shadeOpaque(grid: rowGrid, background: background, into: rowBuffers)
            if hasTransparent { frame.blendTransparent(grid: rowGrid, into: rowBuffers) }
            var o = (firstRow + row) * width * 4
            // The last resolved sum's bits and its pixel: neighbouring pixels often share
            // their colour bits (background, uniform translucent overlays), and equal bits
            // give equal bytes, so a repeat skips the conversion. Starts at +0 → black.
            var lastBits = SIMD3<UInt64>(repeating: 0)
            var lastRGBA: UInt32 = 0xFF00_0000
            for column in 0..<width {
              var sum: SIMD3<Double>
              if scale == 1 {
                sum = colors[column]
              } else {
                sum = .zero
                for sy in 0..<scale {
                  let base = sy * grid.columns + column * scale
                  for sx in 0..<scale { sum += colors[base + sx] }
                }
              }
              let bits = SIMD3(sum.x.bitPattern, sum.y.bitPattern, sum.z.bitPattern)
              if bits == lastBits {
                pixelBytes.storeBytes(of: lastRGBA.littleEndian, toByteOffset: o, as: UInt32.self)
                o += 4
                continue
              }
              // ⌊clamp(x, 0, 255) + ½⌋ per channel, NaN → 0 (as IEEE maximum(NaN, 0) = 0);
              // the comparisons compile to maxsd/minsd, unlike `Double.maximum`. The floor
              // without a checked conversion: y + 2⁵² has ulp 1, so its low mantissa bits hold
              // y rounded to nearest, r; ⌊y⌋ = r − 1 when r > y.
              @inline(__always) func byte(_ x: Double) -> UInt32 {
                let low = x > 0 ? x : 0
                let y = (low < 255 ? low : 255) + 0.5
                let shifted = y + 0x1p52
                let bits = UInt32(truncatingIfNeeded: shifted.bitPattern)
                return shifted - 0x1p52 > y ? bits &- 1 : bits
              }
              let rgba =
                byte(sum.x * weight) | byte(sum.y * weight) << 8 | byte(sum.z * weight) << 16
                | 0xFF00_0000
              lastBits = bits
              lastRGBA = rgba
              // Little-endian RGBA bytes in one store.
              pixelBytes.storeBytes(of: rgba.littleEndian, toByteOffset: o, as: UInt32.self)
              o += 4
            }
          }
          guard writesDepth else { return }
          // Depth output is the pixel-centre ray's depth: with N = 1 that is the sample; with
          // N > 1 a separate visibility pass at pixel centres.
          var depthGrid = grid
          if scale > 1 {
            depthGrid = SampleGrid(scale: 1, columns: width, firstRow: firstRow, rowCount: rows)
            buffers.clear(count: width * rows)
            frame.rasterizeOpaque(grid: depthGrid, into: buffers)
          }
          for row in 0..<rows {
            for column in 0..<width {
              let i = row * width + column
              output.depth[(firstRow + row) * width + column] =
                ids[i] >= 0 ? depths[i] : 0
            }
          }
        }
      }
    }
  }
}

/// The samples of one band: `rowCount` rows of `columns` samples starting at sample row
/// `firstRow` of the whole image.
struct SampleGrid {
  var scale: Int
  var columns: Int
  var firstRow: Int
  var rowCount: Int

  /// Screen u of sample column sx.
  @inline(__always) func u(_ sx: Int) -> Double {
    // With N = 1 the formula (sx + ½)/1 − ½ is exactly sx: skip the division.
    scale == 1 ? Double(sx) : (Double(sx) + 0.5) / Double(scale) - 0.5
  }
  /// Screen v of (whole-image) sample row sy.
  @inline(__always) func v(_ sy: Int) -> Double {
    scale == 1 ? Double(sy) : (Double(sy) + 0.5) / Double(scale) - 0.5
  }

  /// Sample columns whose u lies in [minU, maxU].
  @inline(__always) func columns(minU: Double, maxU: Double) -> Range<Int> {
    let n = Double(scale)
    let low = roundedUp((minU + 0.5) * n - 0.5)
    let high = roundedDown((maxU + 0.5) * n - 0.5)
    guard low <= high, high >= 0, low < Double(columns) else { return 0..<0 }
    return Int(max(0, low))..<Int(min(Double(columns - 1), high)) + 1
  }

  /// Whole-image sample rows of this band whose v lies in [minV, maxV].
  @inline(__always) func rows(minV: Double, maxV: Double) -> Range<Int> {
    let n = Double(scale)
    let low = roundedUp((minV + 0.5) * n - 0.5)
    let high = roundedDown((maxV + 0.5) * n - 0.5)
    let first = Double(firstRow)
    let last = Double(firstRow + rowCount - 1)
    guard low <= high, high >= first, low <= last else { return 0..<0 }
    return Int(max(first, low))..<Int(min(last, high)) + 1
  }
}

/// `x.rounded(.up)` up to the sign of zero, without a libm call (baseline x86-64 has no
/// rounding instruction): whole numbers, infinities and NaN pass through.
@inline(__always) func roundedUp(_ x: Double) -> Double {
  guard abs(x) < 0x1p52 else { return x }
  let truncated = Double(Int64(x))
  return truncated < x ? truncated + 1 : truncated
}

/// `x.rounded(.down)` up to the sign of zero, without a libm call.
@inline(__always) func roundedDown(_ x: Double) -> Double {
  guard abs(x) < 0x1p52 else { return x }
  let truncated = Double(Int64(x))
  return truncated > x ? truncated - 1 : truncated
}

/// Unsafe views of a band's sample buffers.
struct SampleBuffers {
  var depths: UnsafeMutableBufferPointer<Double>
  var ids: UnsafeMutableBufferPointer<Int32>
  var colors: UnsafeMutableBufferPointer<SIMD3<Double>>

  func clear(count: Int) {
    for i in 0..<count {
      depths[i] = .infinity
      ids[i] = -1
    }
  }
}
