/// The runs of one sample row (one sample per pixel) that show only the background: whole
/// vectors of samples without an opaque primitive, at least `minimumVectors` of them in a row.
///
/// Such a run's colours follow from the row's background colour and the translucent triangles
/// that cover it (`PreparedFrame.translucentBackgroundRow`): piecewise constant, so its pixels
/// are written straight to the output (`paint`), one resolved word per piece, and shading,
/// blending and the resolve run only over `content`. The bytes are those of the sample path:
/// the same Float operations per sample, and `resolvedPixel`.
struct BackgroundRuns {
  /// Background runs, ascending; each a multiple of `laneCount` samples from a multiple of it.
  var background: [Range<Int>] = []
  /// The row's other samples, ascending: the gaps between `background`.
  var content: [Range<Int>] = []

  /// Shorter runs of background vectors stay in `content` (per-run set-up would cost more).
  static let minimumVectors = 4

  /// Finds the runs of a row of `columns` samples whose primitive ids (−1 = none) start at
  /// `ids`. The row's last, partial vector counts as content.
  mutating func find(ids: UnsafePointer<Int32>, columns: Int) {
    background.removeAll(keepingCapacity: true)
    content.removeAll(keepingCapacity: true)
    let wholeVectors = columns - columns % laneCount
    /// Whether every id of the vector at sx is negative: the AND of their sign bits (an
    /// integer comparison of lanes compiles to a lane-by-lane loop).
    @inline(__always) func isBackground(_ sx: Int) -> Bool {
      let lanes = UnsafeRawPointer(ids + sx).loadUnaligned(as: IntLanes.self)
      #if ARSIM_RASTERIZER_AVX512
        let eight = lanes.lowHalf & lanes.highHalf
      #else
        let eight = lanes
      #endif
      let four = eight.lowHalf & eight.highHalf
      let two = four.lowHalf & four.highHalf
      return two[0] & two[1] < 0
    }
    var contentStart = 0
    var sx = 0
    while sx < wholeVectors {
      guard isBackground(sx) else {
        sx += laneCount
        continue
      }
      var end = sx + laneCount
      while end < wholeVectors, isBackground(end) { end += laneCount }
      if end - sx >= BackgroundRuns.minimumVectors * laneCount {
        if contentStart < sx { content.append(contentStart..<sx) }
        background.append(sx..<end)
        contentStart = end
      }
      sx = end
    }
    if contentStart < columns { content.append(contentStart..<columns) }
  }
}

/// A translucent triangle's blend over the background samples of one row: sample columns
/// `columns` become `colour · keep + premultiplied` (`PreparedFrame.blendUniform`).
struct TranslucentBackgroundBlend {
  var columns: Range<Int>
  var keep: Float
  var premultiplied: SIMD3<Float>
}

extension PreparedFrame {
  /// Whether `BackgroundRuns` can stand for the background samples of rows: one sample per
  /// pixel, a background that does not depend on u, and no translucent spheres (which blend
  /// per sample over whole rows). Not with the reference paths (`sphereReferencePaths`), which
  /// tests compare against.
  func paintsBackgroundRuns(background: BackgroundSampler, scale: Int) -> Bool {
    if case .image = background.background { return false }
    return scale == 1 && !sphereReferencePaths && !transparent.contains { $0.isSphere }
  }

  /// How each transparent entry (`transparent`, none of them a sphere) covers the one sample
  /// row of `grid` (`translucentRow`), into `rows`, and their blends over its background
  /// samples (depth +∞), in drawing order, into `blends`; false when one of them blends sample
  /// by sample there (`TranslucentRow.perSample`), so the row's background takes the sample
  /// path too.
  func translucentBackgroundRow(
    grid: SampleGrid, rows: inout [TranslucentRow], blends: inout [TranslucentBackgroundBlend]
  ) -> Bool {
    rows.removeAll(keepingCapacity: true)
    blends.removeAll(keepingCapacity: true)
    let sy = grid.firstRow
    var perSample = false
    for entry in transparent {
      let triangle = triangles[entry.index]
      let outline = triangle.outline
      guard grid.rows(minV: outline.minV, maxV: outline.maxV).contains(sy) else {
        rows.append(.none)
        continue
      }
      let material = materials[entry.material]
      let row = translucentRow(triangle, material: material, grid: grid, sy: sy)
      rows.append(row)
      switch row {
      case .none:
        continue
      case .uniform(let columns, _, let farthest):
        // A background sample's depth, +∞, lies beyond any finite `farthest`: covered.
        if !(farthest < .infinity) { perSample = true }
        let alpha = material.opacity
        blends.append(
          TranslucentBackgroundBlend(
            columns: columns, keep: Float(1 - alpha),
            premultiplied: SIMD3<Float>(material.uniform * alpha)))
      case .perSample:
        perSample = true
      }
    }
    return !perSample
  }
}

/// Writes the resolved pixels of background run `run` of a row whose background colour is
/// `color`, under `blends` (in drawing order), to the row's RGBA8 pixels at `pixels`.
func paintBackground(
  _ run: Range<Int>, color: SIMD3<Float>, blends: [TranslucentBackgroundBlend],
  into pixels: UnsafeMutableRawPointer
) {
  var start = run.lowerBound
  while start < run.upperBound {
    // The piece from `start` up to the next end of a blend's columns.
    var end = run.upperBound
    var pieceColor = color
    for blend in blends {
      if blend.columns.lowerBound > start { end = min(end, blend.columns.lowerBound) }
      if blend.columns.upperBound > start { end = min(end, blend.columns.upperBound) }
      if blend.columns.contains(start) {
        pieceColor = pieceColor * blend.keep + blend.premultiplied
      }
    }
    let word = UInt32Lanes(repeating: resolvedPixel(pieceColor)).littleEndianLanes
    var column = start
    while column + laneCount <= end {
      (pixels + column * 4).storeBytes(of: word, as: UInt32Lanes.self)
      column += laneCount
    }
    while column < end {
      (pixels + column * 4).storeBytes(of: word[0], as: UInt32.self)
      column += 1
    }
    start = end
  }
}
