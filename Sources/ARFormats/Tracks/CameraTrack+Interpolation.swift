import ARMath
import ARSupport

extension CameraTrack {
  /// The time of the first pose, seconds (file clock).
  public var startSeconds: Double { poses.first?.timeSeconds ?? 0 }
  /// The time of the last pose, seconds (file clock).
  public var endSeconds: Double { poses.last?.timeSeconds ?? 0 }

  /// The camera pose at `timeSeconds` (file clock): the two surrounding samples interpolated with
  /// linear position and shortest-path slerp orientation (`RigidTransform.interpolated`, GLM's
  /// slerp, normalised-lerp below tiny angles). A time equal to a sample gives that sample.
  ///
  /// - Parameter clamp: hold the first / last pose outside the track instead of throwing.
  /// - Complexity: O(log n) (binary search).
  /// - Throws: `TrackQueryError.timeOutOfRange` when `timeSeconds` is outside
  ///   `[startSeconds, endSeconds]` (or NaN) and `clamp` is false.
  public func pose(at timeSeconds: Double, clamp: Bool = false) throws -> RigidTransform {
    guard let first = poses.first, let last = poses.last else {
      throw TrackQueryError.timeOutOfRange(
        requestedSeconds: timeSeconds, firstSeconds: .nan, lastSeconds: .nan)
    }
    guard timeSeconds >= first.timeSeconds, timeSeconds <= last.timeSeconds else {
      if clamp, !timeSeconds.isNaN {
        return timeSeconds < first.timeSeconds ? first.worldFromCamera : last.worldFromCamera
      }
      throw TrackQueryError.timeOutOfRange(
        requestedSeconds: timeSeconds, firstSeconds: first.timeSeconds,
        lastSeconds: last.timeSeconds)
    }
    // The last index whose time is ≤ timeSeconds.
    var low = 0
    var high = poses.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if poses[middle].timeSeconds <= timeSeconds { low = middle } else { high = middle - 1 }
    }
    let a = poses[low]
    guard low + 1 < poses.count, timeSeconds > a.timeSeconds else { return a.worldFromCamera }
    let b = poses[low + 1]
    let fraction = (timeSeconds - a.timeSeconds) / (b.timeSeconds - a.timeSeconds)
    return a.worldFromCamera.interpolated(to: b.worldFromCamera, t: fraction)
  }

  /// Poses at a fixed rate: times `startSeconds + k / rateHertz` for k = 0, 1, … while the time
  /// is at most `startSeconds + durationSeconds` (or the track's end when `durationSeconds` is
  /// nil), each interpolated by `pose(at:clamp:)`.
  ///
  /// - Parameters:
  ///   - rateHertz: samples per second, positive.
  ///   - startSeconds: the first sample's time on the file clock.
  ///   - durationSeconds: the span covered, seconds, ≥ 0; nil = up to the last pose.
  ///   - clamp: hold the end poses for times outside the track instead of throwing.
  /// - Complexity: O(m log n) for m samples.
  /// - Throws: `TrackQueryError.invalidResampling` for a non-positive rate or negative duration;
  ///   `.timeOutOfRange` for a sample outside the track when `clamp` is false.
  public func resampled(
    rate rateHertz: Double, start startSeconds: Double, duration durationSeconds: Double?,
    clamp: Bool = false
  ) throws -> [TimedPose] {
    guard rateHertz > 0, rateHertz.isFinite else {
      throw TrackQueryError.invalidResampling("rate \(rateHertz) Hz is not positive and finite")
    }
    let span = durationSeconds ?? (endSeconds - startSeconds)
    guard span >= 0, span.isFinite, startSeconds.isFinite else {
      throw TrackQueryError.invalidResampling(
        "start \(startSeconds) s with duration \(span) s covers no time")
    }
    // 1e-9 absorbs rounding so that a span of exactly k / rate includes sample k.
    let count = Int((span * rateHertz + 1e-9).rounded(.down)) + 1
    var result: [TimedPose] = []
    result.reserveCapacity(count)
    for k in 0..<count {
      var t = startSeconds + Double(k) / rateHertz
      if durationSeconds == nil, k == count - 1, t > endSeconds { t = endSeconds }
      result.append(TimedPose(timeSeconds: t, worldFromCamera: try pose(at: t, clamp: clamp)))
    }
    return result
  }
}
