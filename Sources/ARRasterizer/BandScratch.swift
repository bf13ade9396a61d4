/// One worker's sample storage for `BandRenderer.render`, kept from band to band (and
/// allocated once per worker and frame).
struct BandScratch {
  /// Per sample of the band: depth (metres along −Z, +∞ = empty; Float, as a GPU's depth
  /// buffer: 10⁻⁷ relative, 0.1 µm at a metre), visible primitive (−1 = none; spheres first,
  /// then triangles offset by the sphere count).
  var depths: [Float]
  var ids: [Int32]
  /// Colour 0…1 of the N sample rows of one output row: all red samples, then green, then blue,
  /// each channel followed by its own padding.
  /// Shading, blending and the resolve run one output row at a time, so these stay in the
  /// cache; per-channel Float arrays let them work on `laneCount` samples per step (one 512-bit
  /// vector in the AVX-512 build, one 256-bit vector in the AVX2 build, two 128-bit ones in the
  /// baseline build). Float carries 24 bits, far more than the 8 of the output.
  var channels: [Float]
  /// Each row's `BackgroundRuns` (`BackgroundRuns.capacity` of each kind), and room for
  /// `PreparedFrame.translucentBackgroundRow`'s rows and blends (one per transparent entry).
  var runStorage: [Range<Int>]
  var translucentRows: [TranslucentRow]
  var backgroundBlends: [TranslucentBackgroundBlend]
  /// One output row's RGBA8 pixels: resolved and painted here, in the cache, then copied into
  /// the frame with stores that pass the caches (`arsim_stream_copy`). Written in place, each
  /// frame line was first read from memory (for ownership) only to be overwritten whole: 11 MB
  /// a B1 frame (Documentation/Performance.md, "The frame's rows past the caches").
  var rowPixels: [UInt32]

  /// Storage for bands of `samples` samples whose output rows have `rowSamples` samples each
  /// (N sample rows of N·width), each buffer followed by `BandRenderer.padding` samples; rows
  /// of `columns` samples and `width` pixels; a frame of `transparentCount` transparent entries.
  init(samples: Int, rowSamples: Int, columns: Int, width: Int, transparentCount: Int) {
    // Padding after each buffer (and each colour channel): vector loops may read, and write
    // back unchanged, up to `laneCount − 1` samples past a row's last one.
    depths = [Float](repeating: .infinity, count: samples + BandRenderer.padding)
    ids = [Int32](repeating: -1, count: samples + BandRenderer.padding)
    channels = [Float](repeating: 0, count: 3 * (rowSamples + BandRenderer.padding))
    runStorage = [Range<Int>](
      repeating: 0..<0, count: 2 * BackgroundRuns.capacity(columns: columns))
    translucentRows = [TranslucentRow](repeating: .none, count: transparentCount)
    backgroundBlends = [TranslucentBackgroundBlend](
      repeating: TranslucentBackgroundBlend(columns: 0..<0, keep: 1, premultiplied: .zero),
      count: transparentCount)
    rowPixels = [UInt32](repeating: 0, count: width)
  }
}
