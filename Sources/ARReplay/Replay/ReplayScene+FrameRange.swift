import ARSupport

extension ReplayScene {
  /// The frames a run renders: `range`, or all of the scene's (0 … frameCount − 1) when nil.
  /// - Throws: `InputError` `.usage` (exit 64) naming the scene file when `range` reaches
  ///   outside the scene's frames (`--frames` is an option, the scene what it counts). The
  ///   range is compared by its bounds, never counted: `0..9223372036854775807` has more
  ///   frames than `Int` holds.
  public func frames(_ range: ClosedRange<Int>?) throws -> ClosedRange<Int> {
    let lastFrame = schedule.frameCount - 1
    let frames = range ?? 0...lastFrame
    guard frames.lowerBound >= 0, frames.upperBound <= lastFrame else {
      let given =
        frames.lowerBound == frames.upperBound
        ? "\(frames.lowerBound)" : "\(frames.lowerBound)..\(frames.upperBound)"
      throw InputError(
        .usage, InputLocation(file: sceneFilePath),
        "--frames \(given) is outside the scene's frames 0..\(lastFrame)")
    }
    return frames
  }
}
