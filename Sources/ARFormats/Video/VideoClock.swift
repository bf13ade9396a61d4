import ARSupport

/// What a video shows after its last frame.
public enum VideoEndBehavior: String, Hashable, Sendable, CaseIterable {
  /// Keep showing the last frame (a remote stream that stopped: the renderer keeps its last
  /// texture). The default.
  case hold
  /// Start again from frame 0.
  case loop
}

/// Maps video time to a frame index of a video with a known frame count.
public struct VideoClock: Hashable, Sendable {
  /// The video's frame rate.
  public var rate: FrameRate
  /// The number of frames (≥ 0).
  public var frameCount: Int
  /// What happens past the last frame.
  public var end: VideoEndBehavior

  /// Creates a clock.
  public init(rate: FrameRate, frameCount: Int, end: VideoEndBehavior = .hold) {
    self.rate = rate
    self.frameCount = frameCount
    self.end = end
  }

  /// The frame shown at video time `microseconds` (µs since the video started): ⌊s · rate⌋,
  /// then held at the last frame or wrapped modulo `frameCount` (`end`).
  ///
  /// Returns `nil` before the video starts (negative time) or for a video with no frames.
  public func frameIndex(atMicroseconds microseconds: Int64) -> Int? {
    guard frameCount > 0, let raw = rate.frameIndex(atMicroseconds: microseconds) else {
      return nil
    }
    let count = Int64(frameCount)
    switch end {
    case .hold: return Int(min(raw, count - 1))
    case .loop: return Int(raw % count)
    }
  }
}
