/// ARKit's camera tracking state (`ARCamera.TrackingState`) as the measure app describes it in
/// its status text (`getTrackigDescription()`, source-apps §5.2). No camera track records it,
/// so the scene file states it (`measure.tracking`).
public enum TrackingState: String, CaseIterable, Hashable, Sendable {
  /// `.notAvailable`.
  case notAvailable
  /// `.normal`.
  case normal
  /// `.limited(.excessiveMotion)`.
  case limitedExcessiveMotion
  /// `.limited(.insufficientFeatures)`.
  case limitedInsufficientFeatures
  /// `.limited(.initializing)`.
  case initializing

  /// The app's text for the state, exactly.
  public var appDescription: String {
    switch self {
    case .notAvailable: "TRACKING UNAVAILABLE"
    case .normal: "TRACKING NORMAL"
    case .limitedExcessiveMotion: "TRACKING LIMITED - Too much camera movement"
    case .limitedInsufficientFeatures: "TRACKING LIMITED - Not enough surface detail"
    case .initializing: "INITIALIZING"
    }
  }
}

/// One change of the tracking state at replay time `t` (seconds).
public struct TrackingChange: Hashable, Sendable {
  /// τ, seconds.
  public var t: Double
  /// The state from then on.
  public var state: TrackingState

  /// Creates a change.
  public init(t: Double, state: TrackingState) {
    self.t = t
    self.state = state
  }
}
