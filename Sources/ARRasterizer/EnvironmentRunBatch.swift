/// Consecutive textured environment runs of one sample row, shaded together `laneCount`
/// samples per vector step.
///
/// A detailed model's triangles cover a few samples of a row each, and a run shaded alone
/// takes a whole step for them. Runs with the same texture that follow each other along the
/// row fill one step instead, each lane with its own run's constants and column
/// (`EnvironmentSamplerLanes`), so every sample gets the bits it gets when its run is shaded
/// alone. The batch holds the contiguous samples `first ..< first + filled` of the band's
/// buffers.
struct EnvironmentRunBatch {
  var lanes = EnvironmentSamplerLanes()
  /// Each lane's column counted from its run's first sample.
  var columns = FloatLanes()
  /// The `PreparedFrame.mipTextures` index of the batch's runs.
  var texture = -1
  var first = 0
  var filled = 0
}

extension PreparedFrame {
  /// Adds the run of samples `range` (one row, shown by `sampler`'s triangle with texture
  /// `texture`) to `batch`, shading the batch into `buffers` whenever it fills up, and first
  /// when the run does not continue it (another texture, or samples in between).
  @inline(__always) func add(
    _ sampler: EnvironmentRunSampler, texture: Int, range: Range<Int>,
    to batch: inout EnvironmentRunBatch, into buffers: SampleBuffers
  ) {
    if batch.filled > 0, batch.texture != texture || batch.first + batch.filled != range.lowerBound
    {
      flush(&batch, into: buffers)
    }
    let last = FloatLanes(repeating: Float(range.count - 1))
    /// Puts the run's samples `taken ..< taken + part` in the lanes from `filled` on (a later
    /// run overwrites those past them; they repeat the run's last sample, valid values that
    /// are never stored).
    @inline(__always) func fill(from taken: Int, _ part: Int) {
      if batch.filled == 0 {
        batch.first = range.lowerBound + taken
        batch.texture = texture
      }
      batch.lanes.take(sampler, fromLane: batch.filled)
      let column = FloatLanes.laneIndices + Float(taken - batch.filled)
      batch.columns = select(
        FloatLanes.laneIndices .>= Float(batch.filled), select(column .< last, column, last),
        batch.columns)
      batch.filled += part
      if batch.filled == laneCount { flush(&batch, into: buffers) }
    }
    var taken = 0
    if batch.filled > 0 {
      taken = min(laneCount - batch.filled, range.count)
      fill(from: 0, taken)
    }
    if range.count - taken >= laneCount,
      let red = buffers.red.baseAddress, let green = buffers.green.baseAddress,
      let blue = buffers.blue.baseAddress
    {
      // Whole steps of this run alone, its constants in every lane.
      var lanes = EnvironmentSamplerLanes()
      lanes.take(sampler, fromLane: 0)
      let view = mipTextureViews[texture]
      while range.count - taken >= laneCount {
        let color = lanes.colors(k: FloatLanes.laneIndices + Float(taken), texture: view)
        let i = range.lowerBound + taken
        UnsafeMutableRawPointer(red + i).storeBytes(of: color.0, as: FloatLanes.self)
        UnsafeMutableRawPointer(green + i).storeBytes(of: color.1, as: FloatLanes.self)
        UnsafeMutableRawPointer(blue + i).storeBytes(of: color.2, as: FloatLanes.self)
        taken += laneCount
      }
    }
    if taken < range.count { fill(from: taken, range.count - taken) }
  }

  /// Shades and stores the samples `batch` holds, and empties it.
  @inline(__always) func flush(_ batch: inout EnvironmentRunBatch, into buffers: SampleBuffers) {
    guard batch.filled > 0, mipTextureViews.indices.contains(batch.texture),
      let red = buffers.red.baseAddress, let green = buffers.green.baseAddress,
      let blue = buffers.blue.baseAddress
    else {
      batch.filled = 0
      return
    }
    let (first, filled) = (batch.first, batch.filled)
    let (lanes, columns) = (batch.lanes, batch.columns)
    let texture = mipTextureViews[batch.texture]
    let color = lanes.colors(k: columns, texture: texture)
    // The buffers are padded (`BandRenderer`): lanes past the batch are written back.
    let inBatch = FloatLanes.laneIndices .< Float(filled)
    @inline(__always) func store(_ lanes: FloatLanes, _ base: UnsafeMutablePointer<Float>) {
      let raw = UnsafeMutableRawPointer(base + first)
      if filled == laneCount {
        raw.storeBytes(of: lanes, as: FloatLanes.self)
      } else {
        let kept = raw.loadUnaligned(as: FloatLanes.self)
        raw.storeBytes(of: select(inBatch, lanes, kept), as: FloatLanes.self)
      }
    }
    store(color.0, red)
    store(color.1, green)
    store(color.2, blue)
    batch.filled = 0
  }
}
