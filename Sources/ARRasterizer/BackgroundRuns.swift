/// The runs of one sample row (one sample per pixel) that show only the background: whole
/// vectors of samples without an opaque primitive, at least `minimumVectors` of them in a row.
///
/// Such a run's colours follow from the row's background colour and the translucent triangles
/// that cover it (`PreparedFrame.translucentBackgroundRow`): piecewise constant, so its pixels
/// are written straight to the output (`paint`), one resolved word per piece, and shading,
/// blending and the resolve run only over `content`. The bytes are those of the sample path:
/// the same Float operations per sample, and `resolvedPixel`.
///
/// The runs are written into storage the caller owns (`BandScratch`, one per worker, taken
/// once per band), not into arrays: the band loop reads them row by row, and every `for … in`
/// over an array would retain and release it.
struct BackgroundRuns {
  /// Room for the background runs and for the content runs (each `capacity(columns:)`).
  private let backgroundStorage: UnsafeMutablePointer<Range<Int>>
  private let contentStorage: UnsafeMutablePointer<Range<Int>>
  /// Runs the storage holds, each kind.
  private let storageCapacity: Int
  private var backgroundCount = 0
  private var contentCount = 0

  /// Shorter runs of background vectors stay in `content` (per-run set-up would cost more).
  static let minimumVectors = 4

  /// The most runs of one kind a row of `columns` samples can have: k background runs of at
  /// least `minimumVectors` vectors, content between them, fill k · m + (k − 1) ≤ W whole
  /// vectors, so k ≤ W / (m + 1) + 1, and content runs number at most k + 1.
  static func capacity(columns: Int) -> Int {
    columns / laneCount / (minimumVectors + 1) + 2
  }

  /// Runs of rows of at most `columns` samples, kept in `storage` (at least
  /// 2 · `capacity(columns:)` ranges, valid while this value is used).
  init(storage: UnsafeMutableBufferPointer<Range<Int>>, columns: Int) {
    let capacity = Self.capacity(columns: columns)
    guard let base = storage.baseAddress, storage.count >= 2 * capacity else {
      preconditionFailure("BackgroundRuns: storage too small")
    }
    backgroundStorage = base
    contentStorage = base + capacity
    storageCapacity = capacity
  }

  /// Background runs, ascending; each a multiple of `laneCount` samples from a multiple of it.
  var background: UnsafeBufferPointer<Range<Int>> {
    UnsafeBufferPointer(start: backgroundStorage, count: backgroundCount)
  }
  /// The row's other samples, ascending: the gaps between `background`.
  var content: UnsafeBufferPointer<Range<Int>> {
    UnsafeBufferPointer(start: contentStorage, count: contentCount)
  }

  private mutating func appendBackground(_ run: Range<Int>) {
    precondition(backgroundCount < storageCapacity)
    backgroundStorage[backgroundCount] = run
    backgroundCount += 1
  }

  private mutating func appendContent(_ run: Range<Int>) {
    precondition(contentCount < storageCapacity)
    contentStorage[contentCount] = run
    contentCount += 1
  }

  /// Finds the runs of a row of `columns` samples whose primitive ids (−1 = none) start at
  /// `ids`. The row's last, partial vector counts as content.
  /// - Precondition: `columns` is at most the `columns` of `init`.
  mutating func find(ids: UnsafePointer<Int32>, columns: Int) {
    backgroundCount = 0
    contentCount = 0
    let wholeVectors = columns - columns % laneCount
    /// Whether every id of the vector at sx is negative: the AND of their sign bits (an
    /// integer comparison of lanes compiles to a lane-by-lane loop).
    @inline(__always) func isBackground(_ sx: Int) -> Bool {
      isBackground(UnsafeRawPointer(ids + sx).loadUnaligned(as: IntLanes.self))
    }
    /// Whether the four vectors from sx are all background: one test of their AND.
    @inline(__always) func areBackground(fourFrom sx: Int) -> Bool {
      let raw = UnsafeRawPointer(ids + sx)
      let size = MemoryLayout<IntLanes>.size
      let first = raw.loadUnaligned(as: IntLanes.self)
      let second = raw.loadUnaligned(fromByteOffset: size, as: IntLanes.self)
      let third = raw.loadUnaligned(fromByteOffset: 2 * size, as: IntLanes.self)
      let fourth = raw.loadUnaligned(fromByteOffset: 3 * size, as: IntLanes.self)
      return isBackground(first & second & third & fourth)
    }
    @inline(__always) func isBackground(_ lanes: IntLanes) -> Bool {
      #if ARSIM_RASTERIZER_AVX512
        let eight = lanes.lowHalf & lanes.highHalf
      #else
        let eight = lanes
      #endif
      let four = eight.lowHalf & eight.highHalf
      let two = four.lowHalf & four.highHalf
      return two[0] & two[1] < 0
    }
    // Skipping ahead: a run of `minimumVectors` background vectors that starts at or after
    // `sx` (whose left neighbour, if any, is content or in a run already found) and at or
    // before sx + (minimumVectors − 1) vectors covers the vector `probe` there. So a content
    // probe rules out every start up to it, and in a row crowded with content one vector in
    // `minimumVectors` is looked at; a background probe is extended to its whole run, back to
    // `sx` at most and forward. The runs found are exactly the maximal runs of at least
    // `minimumVectors` background vectors.
    let reach = (BackgroundRuns.minimumVectors - 1) * laneCount
    var contentStart = 0
    var sx = 0
    while sx &+ reach < wholeVectors {
      let probe = sx &+ reach
      guard isBackground(probe) else {
        sx = probe &+ laneCount
        continue
      }
      var start = probe
      while start > sx, isBackground(start &- laneCount) { start &-= laneCount }
      var end = probe &+ laneCount
      // Four vectors per test along a long run, then one at a time to its end.
      while end &+ 4 &* laneCount <= wholeVectors, areBackground(fourFrom: end) {
        end &+= 4 &* laneCount
      }
      while end < wholeVectors, isBackground(end) { end &+= laneCount }
      if end &- start >= BackgroundRuns.minimumVectors &* laneCount {
        if contentStart < start { appendContent(contentStart..<start) }
        appendBackground(start..<end)
        contentStart = end
      }
      // The vector at `end` (if any) is content: the next run starts after it.
      sx = end &+ laneCount
    }
    if contentStart < columns { appendContent(contentStart..<columns) }
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
  /// row of `grid` (`translucentRow`), into `rows[k]` for entry k, and their blends over its
  /// background samples (depth +∞), in drawing order, into the first elements of `blends`;
  /// returns how many blends, or nil when one of the entries blends sample by sample there
  /// (`TranslucentRow.perSample`), so the row's background takes the sample path too.
  /// - Precondition: `rows` and `blends` hold at least `transparent.count` elements each.
  func translucentBackgroundRow(
    grid: SampleGrid, rows: UnsafeMutableBufferPointer<TranslucentRow>,
    blends: UnsafeMutableBufferPointer<TranslucentBackgroundBlend>
  ) -> Int? {
    precondition(rows.count >= transparent.count && blends.count >= transparent.count)
    let sy = grid.firstRow
    var perSample = false
    var blendCount = 0
    for (k, entry) in transparent.enumerated() {
      let triangle = triangles[entry.index]
      let outline = triangle.outline
      guard grid.rows(minV: outline.minV, maxV: outline.maxV).contains(sy) else {
        rows[k] = .none
        continue
      }
      let material = materials[entry.material]
      let row = translucentRow(triangle, material: material, grid: grid, sy: sy)
      rows[k] = row
      switch row {
      case .none:
        continue
      case .uniform(let columns, _, let farthest):
        // A background sample's depth, +∞, lies beyond any finite `farthest`: covered.
        if !(farthest < .infinity) { perSample = true }
        let alpha = material.opacity
        blends[blendCount] = TranslucentBackgroundBlend(
          columns: columns, keep: Float(1 - alpha),
          premultiplied: SIMD3<Float>(material.uniform * alpha))
        blendCount += 1
      case .perSample:
        perSample = true
      }
    }
    return perSample ? nil : blendCount
  }
}

/// Writes the resolved pixels of background run `run` of a row whose background colour is
/// `color`, under `blends` (in drawing order), to the row's RGBA8 pixels at `pixels`.
func paintBackground(
  _ run: Range<Int>, color: SIMD3<Float>, blends: [TranslucentBackgroundBlend],
  into pixels: UnsafeMutableRawPointer
) {
  blends.withUnsafeBufferPointer { paintBackground(run, color: color, blends: $0, into: pixels) }
}

/// `paintBackground` with the blends by pointer (what the band loop calls, per row).
func paintBackground(
  _ run: Range<Int>, color: SIMD3<Float>, blends: UnsafeBufferPointer<TranslucentBackgroundBlend>,
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
