import ARMath

/// Everything a run's tracking simulation needs, checked (`TrackingSpec.configuration`): the
/// rules that derive ARKit's tracking state, keyframes and recorded states that override
/// them, the pose error and its seed, relocalisations, dropped frames, jitter and
/// interruptions. Times are replay τ in seconds.
public struct TrackingConfiguration: Hashable, Sendable {
  /// Whether the scene has a `tracking` section: the estimate, events and trace fields are
  /// written only then. Without one the camera is the track's and only keyframes (the
  /// measure app's `measure.tracking`) give the state.
  public var isActive = false
  /// Seed of every random draw (pose error, dropped frames, jitter).
  public var seed: UInt64 = 0
  /// `limited(initializing)` for the first this many seconds of the session.
  public var initializingSeconds = 0.0
  /// `limited(excessiveMotion)` while the true camera turns faster than this (rad/s).
  public var maximumAngularSpeed: Double?
  /// `limited(excessiveMotion)` while the true camera moves faster than this (m/s).
  public var maximumLinearSpeed: Double?
  /// `limited(insufficientFeatures)` while fewer feature points than this are in view.
  public var minimumFeaturePoints: Int?
  /// Seconds a rule-derived limited state holds after its cause ended (ARKit does not flip
  /// back the moment the cause goes: a hysteresis).
  public var recoverySeconds = 0.5
  /// States recorded with the track, in τ order; each holds until the next.
  public var recordedStates: [TrackingKeyframe] = []
  /// States from the scene file, in τ order (a nil state returns to the rules and recorded
  /// states).
  public var keyframes: [TrackingKeyframe] = []
  /// The pose error.
  public var error = PoseErrorModel()
  /// Relocalisations, in τ order.
  public var relocalizations: [Relocalization] = []
  /// Dropped frames and jitter.
  public var frames = FrameTimingModel()
  /// Interruptions, in τ order, not overlapping.
  public var interruptions: [Interruption] = []

  /// An inactive configuration: the true camera, state `normal` from τ = 0.
  public init() {}
}

/// A tracking state from time `t` on (τ seconds).
public struct TrackingKeyframe: Hashable, Sendable {
  /// τ, seconds.
  public var t: Double
  /// The state from then on; nil = back to what the rules (and recorded states) say.
  public var state: TrackingState?

  /// Creates a keyframe.
  public init(t: Double, state: TrackingState?) {
    self.t = t
    self.state = state
  }
}

/// A relocalisation at τ `t`: the tracker re-aligns its world with its map, the drift
/// accumulated so far is replaced by `residual` (default none: the estimate snaps back to the
/// true pose). Content keeps its world transforms in the estimated world, as ARKit's anchors
/// do, so it visibly jumps over the camera image.
public struct Relocalization: Hashable, Sendable {
  /// τ, seconds.
  public var t: Double
  /// The error left after the re-alignment.
  public var residual: PoseError

  /// Creates a relocalisation.
  public init(t: Double, residual: PoseError = .zero) {
    self.t = t
    self.residual = residual
  }
}

/// Camera frames that do not arrive, and when the ones that do were taken.
///
/// ARKit delivers frames at 60 Hz (`ARFrame.timestamp`); a frame's capture time varies around
/// the tick (`jitterSeconds`, σ of a normal draw clamped to half a tick interval), and a busy
/// device drops frames (`dropRate` per tick, and `drops` at given τ).
public struct FrameTimingModel: Hashable, Sendable {
  /// Probability that a tick's camera frame is dropped, 0…1.
  public var dropRate = 0.0
  /// τ (seconds) of frames dropped for sure: the first tick at or after each.
  public var drops: [Double] = []
  /// σ of the capture time around the tick, seconds.
  public var jitterSeconds = 0.0

  /// No drops, no jitter.
  public init() {}
}

/// An interruption (`sessionWasInterrupted` … `sessionInterruptionEnded`): no camera frames
/// from `start` until `end`; then `limited(relocalizing)` for `relocalizingSeconds`, ending in
/// a relocalisation that re-aligns the world.
public struct Interruption: Hashable, Sendable {
  /// τ of `sessionWasInterrupted`, seconds.
  public var start: Double
  /// τ of `sessionInterruptionEnded`, seconds (> start).
  public var end: Double
  /// Seconds of `limited(relocalizing)` after the end.
  public var relocalizingSeconds: Double

  /// Creates an interruption.
  public init(start: Double, end: Double, relocalizingSeconds: Double = 1) {
    self.start = start
    self.end = end
    self.relocalizingSeconds = relocalizingSeconds
  }
}
