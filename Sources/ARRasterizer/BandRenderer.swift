import ARRenderCore
import CLaneMath
import ARScene

/// Renders one band of output rows at a time into a worker's `BandScratch` (one per worker).
///
/// Sample grid: N×N samples per pixel; sample column sx sits at screen u = (sx + ½)/N − ½ and
/// sample row sy at v = (sy + ½)/N − ½, so N = 1 samples exactly the pixel centres. Every value
/// of a sample depends only on its own (u, v), never on the band, which keeps the output
/// independent of the thread count.
///
/// Read-only while bands render, and `render` is not mutating: the frame's arrays are read
/// in place, never copied (a copy of `PreparedFrame` retains each of its arrays, and the
/// workers share them, so every retain would move their cache lines between cores).
struct BandRenderer {
  let frame: PreparedFrame
  let background: BackgroundSampler
  let width: Int
  let height: Int
  let scale: Int
  let bandRows: Int
  let writesDepth: Bool
  /// Per band, the opaque primitives that reach it (`PreparedFrame.opaqueBins`).
  let bins: [[Int32]]
  /// The camera ray's x of each sample column and y of each sample row (`SampleGrid.rayX`,
  /// `rayY`), and the same per pixel for the depth pass of supersampled frames.
  let rayX: [Float]
  let rayY: [Double]
  /// The ray's x of each sample column in Double (`SampleGrid.directionX`).
  let directionX: [Double]
  let pixelRayX: [Float]
  let pixelRayY: [Double]

  init(
    frame: PreparedFrame, background: BackgroundSampler, width: Int, height: Int, scale: Int,
    bandRows: Int, writesDepth: Bool, bins: [[Int32]]
  ) {
    self.frame = frame
    self.background = background
    self.width = width
    self.height = height
    self.scale = scale
    self.bandRows = bandRows
    self.writesDepth = writesDepth
    self.bins = bins
    let k = frame.intrinsics
    rayX = SampleGrid.rayXTable(scale: scale, columns: width * scale, intrinsics: k)
    rayY = SampleGrid.rayYTable(scale: scale, rows: height * scale, intrinsics: k)
    directionX = SampleGrid.directionXTable(scale: scale, columns: width * scale, intrinsics: k)
    let pixelPass = writesDepth && scale > 1
    pixelRayX = pixelPass ? SampleGrid.rayXTable(scale: 1, columns: width, intrinsics: k) : []
    pixelRayY = pixelPass ? SampleGrid.rayYTable(scale: 1, rows: height, intrinsics: k) : []
  }

  /// Storage for one worker's bands of this frame (`render`'s `scratch`).
  func makeScratch() -> BandScratch {
    BandScratch(
      samples: width * scale * bandRows * scale, rowSamples: width * scale * scale,
      columns: width * scale, width: width, transparentCount: frame.transparent.count)
  }

  /// Samples of padding after the band's buffers.
  static let padding = 16

  /// Renders output rows `firstRow ..< firstRow + bandRows` (clipped to the image), using
  /// `scratch` (from `makeScratch`) for the band's samples.
  func render(firstRow: Int, scratch: inout BandScratch, into output: BandOutput) {
    rayX.withUnsafeBufferPointer { rayX in
      rayY.withUnsafeBufferPointer { rayY in
        directionX.withUnsafeBufferPointer { directionX in
          pixelRayX.withUnsafeBufferPointer { pixelRayX in
            pixelRayY.withUnsafeBufferPointer { pixelRayY in
              render(
                firstRow: firstRow, rays: (rayX, rayY, directionX),
                pixelRays: (pixelRayX, pixelRayY), scratch: &scratch, into: output)
            }
          }
        }
      }
    }
  }

  private func render(
    firstRow: Int, rays: SampleRays,
    pixelRays: (UnsafeBufferPointer<Float>, UnsafeBufferPointer<Double>),
    scratch: inout BandScratch, into output: BandOutput
  ) {
    scratch.depths.withUnsafeMutableBufferPointer { depths in
      scratch.ids.withUnsafeMutableBufferPointer { ids in
        scratch.channels.withUnsafeMutableBufferPointer { channels in
          scratch.runStorage.withUnsafeMutableBufferPointer { runStorage in
            scratch.translucentRows.withUnsafeMutableBufferPointer { translucentRows in
              scratch.backgroundBlends.withUnsafeMutableBufferPointer { blends in
                scratch.rowPixels.withUnsafeMutableBytes { rowPixels in
                  let stride = channels.count / 3
                  let count = stride - BandRenderer.padding
                  let buffers = SampleBuffers(
                    depths: depths, ids: ids,
                    red: UnsafeMutableBufferPointer(rebasing: channels[0..<count]),
                    green: UnsafeMutableBufferPointer(
                      rebasing: channels[stride..<(stride + count)]),
                    blue: UnsafeMutableBufferPointer(
                      rebasing: channels[(2 * stride)..<(2 * stride + count)]))
                  render(
                    firstRow: firstRow, rays: rays, pixelRays: pixelRays, buffers: buffers,
                    runs: BackgroundRuns(storage: runStorage, columns: width * scale),
                    translucentRows: translucentRows, blends: blends, rowPixels: rowPixels,
                    into: output)
                }
              }
            }
          }
        }
      }
    }
  }

  /// `render` with the worker's storage by pointer: `buffers` (the band's samples, one output
  /// row's colours), `runs`, room for each row's `translucentBackgroundRow`, and one row of
  /// pixels (`BandScratch.rowPixels`).
  private func render(
    firstRow: Int, rays: SampleRays,
    pixelRays: (UnsafeBufferPointer<Float>, UnsafeBufferPointer<Double>),
    buffers: SampleBuffers, runs: consuming BackgroundRuns,
    translucentRows: UnsafeMutableBufferPointer<TranslucentRow>,
    blends: UnsafeMutableBufferPointer<TranslucentBackgroundBlend>,
    rowPixels: UnsafeMutableRawBufferPointer, into output: BandOutput
  ) {
    let rows = min(bandRows, height - firstRow)
    let grid = SampleGrid(
      scale: scale, columns: width * scale, firstRow: firstRow * scale,
      rowCount: rows * scale, rayX: rays.0, rayY: rays.1, directionX: rays.2)
    let hasTransparent = !frame.transparent.isEmpty
    let paintsBackgroundRuns = frame.paintsBackgroundRuns(background: background, scale: scale)
    let (depths, ids, red, green, blue) = (
      buffers.depths, buffers.ids, buffers.red, buffers.green, buffers.blue
    )
    buffers.clear(count: grid.columns * grid.rowCount)
    frame.rasterizeOpaque(grid: grid, positions: bins[firstRow / bandRows], into: buffers)
    // Per output row: shade its N sample rows, blend the transparent primitives over
    // them, then the box-filter resolve (`resolveRow`).
    guard let pixelBytes = UnsafeMutableRawPointer(output.pixels.baseAddress),
      let rowPixels = rowPixels.baseAddress
    else { return }
    let samplesPerRow = grid.columns * scale
    // The band's streamed rows are in memory before another thread reads the frame.
    defer { arsim_stream_fence() }
    for row in 0..<rows {
      let rowGrid = SampleGrid(
        scale: scale, columns: grid.columns, firstRow: (firstRow + row) * scale,
        rowCount: scale, rayX: rays.0, rayY: rays.1, directionX: rays.2)
      let rowBuffers = SampleBuffers(
        depths: UnsafeMutableBufferPointer(
          rebasing: depths[(row * samplesPerRow)..<((row + 1) * samplesPerRow)]),
        ids: UnsafeMutableBufferPointer(
          rebasing: ids[(row * samplesPerRow)..<((row + 1) * samplesPerRow)]),
        red: red, green: green, blue: blue)
      // Every path below writes all of the row's pixels into `rowPixels`.
      defer { arsim_stream_copy(pixelBytes + (firstRow + row) * width * 4, rowPixels, width * 4) }
      if paintsBackgroundRuns, let rowIds = rowBuffers.ids.baseAddress {
        // Long runs of background samples: their pixels straight from the background
        // colour and the translucent triangles (`BackgroundRuns`); the rest as below.
        runs.find(ids: rowIds, columns: grid.columns)
        if !runs.background.isEmpty,
          let blendCount = frame.translucentBackgroundRow(
            grid: rowGrid, rows: translucentRows, blends: blends)
        {
          let content = runs.content
          for columns in content {
            frame.shadeOpaque(
              grid: rowGrid, background: background, columns: columns, into: rowBuffers)
          }
          if hasTransparent {
            frame.blendTransparent(
              grid: rowGrid, within: content, rows: UnsafeBufferPointer(translucentRows),
              into: rowBuffers)
          }
          for columns in content {
            resolveRow(
              red: red, green: green, blue: blue, columns: grid.columns, scale: scale,
              width: width, pixels: columns, into: rowPixels)
          }
          let color = background.rowColor(v: rowGrid.v(rowGrid.firstRow))
          let rowBlends = UnsafeBufferPointer(rebasing: blends[..<blendCount])
          for run in runs.background {
            paintBackground(run, color: color, blends: rowBlends, into: rowPixels)
          }
          continue
        }
      }
      frame.shadeOpaque(grid: rowGrid, background: background, into: rowBuffers)
      if hasTransparent { frame.blendTransparent(grid: rowGrid, into: rowBuffers) }
      resolveRow(
        red: red, green: green, blue: blue, columns: grid.columns, scale: scale,
        width: width, into: rowPixels)
    }
    guard writesDepth else { return }
    // Depth output is the pixel-centre ray's depth: with N = 1 that is the sample; with
    // N > 1 a separate visibility pass at pixel centres.
    if scale > 1 {
      let depthGrid = SampleGrid(
        scale: 1, columns: width, firstRow: firstRow, rowCount: rows, rayX: pixelRays.0,
        rayY: pixelRays.1)
      buffers.clear(count: width * rows)
      frame.rasterizeOpaque(
        grid: depthGrid, positions: bins[firstRow / bandRows], into: buffers)
    }
    for row in 0..<rows {
      for column in 0..<width {
        let i = row * width + column
        output.depth[(firstRow + row) * width + column] = frame.outputDepth(
          id: ids[i], stored: depths[i], u: Double(column), v: Double(firstRow + row))
      }
    }
  }
}

/// The per-column and per-row ray tables of a band's grid: `SampleGrid.rayX`, `rayY`,
/// `directionX`.
typealias SampleRays = (
  UnsafeBufferPointer<Float>, UnsafeBufferPointer<Double>, UnsafeBufferPointer<Double>
)

/// The samples of one band: `rowCount` rows of `columns` samples starting at sample row
/// `firstRow` of the whole image.
struct SampleGrid {
  var scale: Int
  var columns: Int
  var firstRow: Int
  var rowCount: Int
  /// x of the camera ray `(x, y, −1)` through each sample column, `Float((u − cx) · (1 / fx))`,
  /// with `laneCount` columns of padding (`rayXTable`); valid while the band renders.
  var rayX: UnsafeBufferPointer<Float>
  /// y of that ray on each whole-image sample row, `−(v − cy) / fy` (`rayYTable`).
  var rayY: UnsafeBufferPointer<Double>
  /// x of that ray in Double, `(u − cx) / fx`, per sample column with `laneCount` columns of
  /// padding (`directionXTable`; empty: computed where asked, `directionX(lanesFrom:…)`).
  var directionX = UnsafeBufferPointer<Double>(start: nil, count: 0)

  /// The `directionX` values of `columns` sample columns at N = `scale`, plus `laneCount` of
  /// padding, with the operations the triangle passes used per step (the same bits).
  static func directionXTable(scale: Int, columns: Int, intrinsics: CameraIntrinsics)
    -> [Double]
  {
    let grid = SampleGrid(
      scale: scale, columns: columns, firstRow: 0, rowCount: 0,
      rayX: UnsafeBufferPointer(start: nil, count: 0),
      rayY: UnsafeBufferPointer(start: nil, count: 0))
    var table: [Double] = []
    table.reserveCapacity(columns + 2 * laneCount)
    for sx in stride(from: 0, to: columns + laneCount, by: laneCount) {
      let x = (grid.u(lanesFrom: sx) - intrinsics.cx) / intrinsics.fx
      for lane in 0..<laneCount { table.append(x[lane]) }
    }
    return table
  }

  /// The camera ray's x `(u − cx) / fx` at sample columns sx ..< sx + laneCount (sx <
  /// columns), from `directionX` where the grid has it.
  @inline(__always) func directionX(lanesFrom sx: Int, intrinsics: CameraIntrinsics)
    -> DoubleLanes
  {
    guard let base = directionX.baseAddress else {
      return (u(lanesFrom: sx) - intrinsics.cx) / intrinsics.fx
    }
    return UnsafeRawPointer(base + sx).loadUnaligned(as: DoubleLanes.self)
  }

  /// The `rayY` values of `rows` sample rows at N = `scale`.
  static func rayYTable(scale: Int, rows: Int, intrinsics: CameraIntrinsics) -> [Double] {
    let grid = SampleGrid(
      scale: scale, columns: 0, firstRow: 0, rowCount: 0,
      rayX: UnsafeBufferPointer(start: nil, count: 0),
      rayY: UnsafeBufferPointer(start: nil, count: 0))
    return (0..<rows).map { -(grid.v($0) - intrinsics.cy) / intrinsics.fy }
  }

  /// `rayY` of whole-image sample row sy (a row of the image; NaN, which hits nothing,
  /// outside).
  @inline(__always) func rayY(_ sy: Int) -> Double {
    guard sy >= 0, sy < rayY.count else { return .nan }
    return rayY[sy]
  }

  /// The `rayX` values of `columns` sample columns at N = `scale`, plus `laneCount` of padding, formed in
  /// Double from `u(lanesFrom:)` and narrowed, as the Float kernels did per sample before.
  static func rayXTable(scale: Int, columns: Int, intrinsics: CameraIntrinsics) -> [Float] {
    let grid = SampleGrid(
      scale: scale, columns: columns, firstRow: 0, rowCount: 0,
      rayX: UnsafeBufferPointer(start: nil, count: 0),
      rayY: UnsafeBufferPointer(start: nil, count: 0))
    let inverseFx = 1 / intrinsics.fx
    var table: [Float] = []
    table.reserveCapacity(columns + 16)
    for sx in stride(from: 0, to: columns + laneCount, by: laneCount) {
      let x = FloatLanes(narrowing: (grid.u(lanesFrom: sx) - intrinsics.cx) * inverseFx)
      for lane in 0..<laneCount { table.append(x[lane]) }
    }
    return table
  }

  /// `rayX` of sample columns sx ..< sx + laneCount (sx < columns).
  @inline(__always) func rayX(lanesFrom sx: Int) -> FloatLanes {
    guard let base = rayX.baseAddress else { return .zero }
    return UnsafeRawPointer(base + sx).loadUnaligned(as: FloatLanes.self)
  }

  /// Screen u of sample column sx.
  @inline(__always) func u(_ sx: Int) -> Double {
    // With N = 1 the formula (sx + ½)/1 − ½ is exactly sx: skip the division.
    scale == 1 ? Double(sx) : (Double(sx) + 0.5) / Double(scale) - 0.5
  }
  /// Screen u of sample columns sx ..< sx + laneCount (the same operations as `u(_:)`, lane by lane).
  @inline(__always) func u(lanesFrom sx: Int) -> DoubleLanes {
    let columns = DoubleLanes.laneIndices + Double(sx)
    return scale == 1 ? columns : (columns + 0.5) / Double(scale) - 0.5
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

/// `roundedUp` (`rule` `.up`) or `roundedDown` (`.down`) lane by lane: the AVX builds'
/// rounding instruction, the baseline's truncation.
@inline(__always) func rounded(_ x: SIMD8<Double>, _ rule: FloatingPointRoundingRule)
  -> SIMD8<Double>
{
  #if ARSIM_RASTERIZER_AVX2 || ARSIM_RASTERIZER_AVX512
    return x.rounded(rule)
  #else
    var result = x
    for lane in 0..<8 { result[lane] = rule == .up ? roundedUp(x[lane]) : roundedDown(x[lane]) }
    return result
  #endif
}

/// Unsafe views of a band's sample buffers.
struct SampleBuffers {
  var depths: UnsafeMutableBufferPointer<Float>
  var ids: UnsafeMutableBufferPointer<Int32>
  var red: UnsafeMutableBufferPointer<Float>
  var green: UnsafeMutableBufferPointer<Float>
  var blue: UnsafeMutableBufferPointer<Float>

  /// Sets sample i's colour.
  @inline(__always) func setColor(_ i: Int, _ color: SIMD3<Float>) {
    red[i] = color.x
    green[i] = color.y
    blue[i] = color.z
  }

  /// Sample i's colour.
  @inline(__always) func color(_ i: Int) -> SIMD3<Float> {
    SIMD3(red[i], green[i], blue[i])
  }

  /// The end of the run of samples from `start` (< `limit`) that show the same primitive as
  /// `start`, at most `limit`; `laneCount` ids compared per step, the first that differs found
  /// within the vector (the buffers are padded, so the last step may read past `limit`).
  @_transparent func runEnd(from start: Int, limit: Int) -> Int {
    guard let base = ids.baseAddress else { return limit }
    let lanes = IntLanes(repeating: base[start])
    var end = start + 1
    while end < limit {
      let differs = UnsafeRawPointer(base + end).loadUnaligned(as: IntLanes.self) .!= lanes
      if differs.anyLane() { return min(limit, end + differs.firstLane()) }
      end += laneCount
    }
    return limit
  }

  /// Sets the colour of the samples `range` to `color`, `laneCount` per step; the last step's
  /// lanes past the range are written back unchanged (the buffers are padded and the band's
  /// own).
  @_transparent func fill(_ range: Range<Int>, with color: SIMD3<Float>) {
    guard let r = red.baseAddress, let g = green.baseAddress, let b = blue.baseAddress else {
      return
    }
    let (redLanes, greenLanes, blueLanes) = (
      FloatLanes(repeating: color.x), FloatLanes(repeating: color.y),
      FloatLanes(repeating: color.z)
    )
    var i = range.lowerBound
    while i + laneCount <= range.upperBound {
      UnsafeMutableRawPointer(r + i).storeBytes(of: redLanes, as: FloatLanes.self)
      UnsafeMutableRawPointer(g + i).storeBytes(of: greenLanes, as: FloatLanes.self)
      UnsafeMutableRawPointer(b + i).storeBytes(of: blueLanes, as: FloatLanes.self)
      i += laneCount
    }
    guard i < range.upperBound else { return }
    // A Float comparison: the integer one compiles to a lane-by-lane loop.
    let inRange = FloatLanes.laneIndices .< Float(range.upperBound - i)
    let (redRaw, greenRaw, blueRaw) = (
      UnsafeMutableRawPointer(r + i), UnsafeMutableRawPointer(g + i),
      UnsafeMutableRawPointer(b + i)
    )
    redRaw.storeBytes(
      of: select(inRange, redLanes, redRaw.loadUnaligned(as: FloatLanes.self)),
      as: FloatLanes.self)
    greenRaw.storeBytes(
      of: select(inRange, greenLanes, greenRaw.loadUnaligned(as: FloatLanes.self)),
      as: FloatLanes.self)
    blueRaw.storeBytes(
      of: select(inRange, blueLanes, blueRaw.loadUnaligned(as: FloatLanes.self)),
      as: FloatLanes.self)
  }

  /// Empties the first `count` samples: depth +∞, no primitive. `laneCount` samples per store,
  /// four stores per buffer and step (the element-wise loop compiled to scalar stores, as the
  /// two buffers might overlap).
  func clear(count: Int) {
    guard let depthBase = depths.baseAddress, let idBase = ids.baseAddress else { return }
    let (depth, id) = (FloatLanes(repeating: .infinity), IntLanes(repeating: -1))
    @inline(__always) func store(_ i: Int) {
      UnsafeMutableRawPointer(depthBase + i).storeBytes(of: depth, as: FloatLanes.self)
      UnsafeMutableRawPointer(idBase + i).storeBytes(of: id, as: IntLanes.self)
    }
    var i = 0
    while i &+ 4 &* laneCount <= count {
      store(i)
      store(i &+ laneCount)
      store(i &+ 2 &* laneCount)
      store(i &+ 3 &* laneCount)
      i &+= 4 &* laneCount
    }
    while i &+ laneCount <= count {
      store(i)
      i &+= laneCount
    }
    while i < count {
      depthBase[i] = .infinity
      idBase[i] = -1
      i += 1
    }
  }
}
