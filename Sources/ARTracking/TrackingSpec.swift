import ARMath
import ARSupport

/// The scene file's top-level `tracking` section as written (Documentation/Tracking.md);
/// `configuration(duration:recordedStates:)` checks it.
public struct TrackingSpec: Decodable, Sendable {
  /// Seed of every random draw (default 0), any integer 0…2⁶⁴−1 (a fraction or a negative
  /// number is an error naming the field).
  public var seed: JSONUnsignedInteger?
  /// Seconds of `limited(initializing)` at the start (default 0).
  public var initializing: Double?
  /// `{angularSpeed: rad/s, linearSpeed: m/s}`: `limited(excessiveMotion)` above either.
  public var excessiveMotion: MotionSpec?
  /// `{minimumPoints}`: `limited(insufficientFeatures)` below this many feature points in view.
  public var insufficientFeatures: FeaturesSpec?
  /// Seconds a rule-derived limited state outlasts its cause (default 0.5).
  public var recovery: Double?
  /// Keyframes `[{t, state}]`; state `auto` returns to the rules.
  public var states: [StateSpec]?
  /// The pose error.
  public var error: ErrorSpec?
  /// Relocalisations `[{t, residual}]`.
  public var relocalizations: [RelocalizationSpec]?
  /// Dropped frames and jitter.
  public var frames: FramesSpec?
  /// Interruptions `[{start, end, relocalizing}]`.
  public var interruptions: [InterruptionSpec]?

  /// `excessiveMotion`.
  public struct MotionSpec: Decodable, Sendable {
    /// rad/s.
    public var angularSpeed: Double?
    /// m/s.
    public var linearSpeed: Double?
  }

  /// `insufficientFeatures`.
  public struct FeaturesSpec: Decodable, Sendable {
    /// A count of feature points (a whole number: a fraction is an error naming the field).
    public var minimumPoints: JSONUnsignedInteger
  }

  /// One keyframe.
  public struct StateSpec: Decodable, Sendable {
    /// τ, seconds.
    public var t: Double
    /// A state name (`TrackingState(name:)`) or `auto`.
    public var state: String
  }

  /// `error`.
  public struct ErrorSpec: Decodable, Sendable {
    /// White noise σ: `{position: m, rotation: rad}`.
    public var noise: PairSpec?
    /// Random-walk densities: `{position: m/√s, rotation: rad/√s}`.
    public var drift: PairSpec?
    /// Relative scale error.
    public var scale: Double?
  }

  /// `{position, rotation}` numbers.
  public struct PairSpec: Decodable, Sendable {
    /// Position value.
    public var position: Double?
    /// Rotation value.
    public var rotation: Double?
  }

  /// One relocalisation.
  public struct RelocalizationSpec: Decodable, Sendable {
    /// τ, seconds.
    public var t: Double
    /// The error left: `{position: [x, y, z] m, rotation: [x, y, z] rad}` (default none).
    public var residual: ResidualSpec?
  }

  /// A residual error.
  public struct ResidualSpec: Decodable, Sendable {
    /// World metres.
    public var position: [Double]?
    /// Rotation vector, radians.
    public var rotation: [Double]?
  }

  /// `frames`.
  public struct FramesSpec: Decodable, Sendable {
    /// 0…1 per tick.
    public var dropRate: Double?
    /// τ of dropped frames.
    public var drops: [Double]?
    /// σ of the capture time, seconds.
    public var jitter: Double?
  }

  /// One interruption.
  public struct InterruptionSpec: Decodable, Sendable {
    /// τ, seconds.
    public var start: Double
    /// τ, seconds.
    public var end: Double
    /// Seconds of `limited(relocalizing)` afterwards (default 1).
    public var relocalizing: Double?
  }

  /// The largest position noise σ (m) and drift density (m/√s) a section may ask for, and the
  /// largest component of a relocalisation's position residual (m).
  public static let maximumPositionSigma = 100.0
  /// The largest rotation noise σ (rad) and drift density (rad/√s), and the largest component
  /// of a relocalisation's rotation residual (rad): 2π.
  public static let maximumRotationSigma = 2 * Double.pi

  /// The section's known keys by field path (unknown keys become warnings).
  public static let schema: [String: Set<String>] = [
    "tracking": [
      "seed", "initializing", "excessiveMotion", "insufficientFeatures", "recovery", "states",
      "error", "relocalizations", "frames", "interruptions",
    ],
    "tracking.excessiveMotion": ["angularSpeed", "linearSpeed"],
    "tracking.insufficientFeatures": ["minimumPoints"],
    "tracking.states[]": ["t", "state"],
    "tracking.error": ["noise", "drift", "scale"],
    "tracking.error.noise": ["position", "rotation"],
    "tracking.error.drift": ["position", "rotation"],
    "tracking.relocalizations[]": ["t", "residual"],
    "tracking.relocalizations[].residual": ["position", "rotation"],
    "tracking.frames": ["dropRate", "drops", "jitter"],
    "tracking.interruptions[]": ["start", "end", "relocalizing"],
  ]

  /// `value` when it is a time of a replay whose τ runs from 0 to `duration` seconds: every
  /// time of the section is checked so, and the keyframes sessions add (`measure.tracking`).
  /// - Throws: `TrackingSpecError` naming `field` for a time that is not finite or lies
  ///   outside 0…duration.
  public static func checkedTime(_ value: Double, field: String, duration: Double)
    throws(TrackingSpecError) -> Double
  {
    guard value.isFinite, value >= 0, value <= duration + 1e-9 else {
      throw TrackingSpecError(field, "\(value) s is outside the replay's time 0…\(duration) s")
    }
    return value
  }

  /// The checked configuration, for a replay whose τ runs from 0 to `duration` seconds.
  /// - Throws: `TrackingSpecError` naming the field (from the scene's root, e.g.
  ///   `tracking.error.noise.position`) for a negative or non-finite σ, density, speed or
  ///   time, a time outside 0…duration, times out of order, overlapping interruptions, a
  ///   drop rate outside 0…1, a drop at τ = 0 (the first frame always arrives), or a state
  ///   name that is not ARKit's. (A negative or fractional `seed` or `minimumPoints` fails
  ///   to decode, naming the field.)
  public func configuration(duration: Double, recordedStates: [TrackingKeyframe] = [])
    throws(TrackingSpecError) -> TrackingConfiguration
  {
    var c = TrackingConfiguration()
    c.isActive = true
    c.seed = seed?.value ?? 0
    c.recordedStates = recordedStates
    func nonNegative(_ value: Double?, _ field: String, _ unit: String) throws(TrackingSpecError)
      -> Double?
    {
      guard let value else { return nil }
      guard value.isFinite, value >= 0 else {
        throw TrackingSpecError(field, "must be a finite number ≥ 0 \(unit) (got \(value))")
      }
      return value
    }
    func time(_ value: Double, _ field: String) throws(TrackingSpecError) -> Double {
      try Self.checkedTime(value, field: field, duration: duration)
    }
    func vector(_ values: [Double]?, _ field: String, atMost limit: Double, _ unit: String)
      throws(TrackingSpecError) -> Vector3
    {
      guard let values else { return .zero }
      guard values.count == 3, values.allSatisfy(\.isFinite) else {
        throw TrackingSpecError(field, "expected 3 finite numbers")
      }
      guard values.allSatisfy({ abs($0) <= limit }) else {
        throw TrackingSpecError(
          field, "each component must be at most \(limit) \(unit) in size (got \(values))")
      }
      return Vector3(values[0], values[1], values[2])
    }
    // Rotation σ ≤ 2π rad (and rad/√s): a larger one is no more random, and at 10¹² the angle
    // lost every bit of its sine and cosine, so the noise quietly vanished.
    func rotationSigma(_ value: Double?, _ field: String, _ unit: String) throws(TrackingSpecError)
      -> Double
    {
      let sigma = try nonNegative(value, field, unit) ?? 0
      guard sigma <= Self.maximumRotationSigma else {
        throw TrackingSpecError(field, "must be at most 2π \(unit) (got \(sigma))")
      }
      return sigma
    }
    c.initializingSeconds = try nonNegative(initializing, "tracking.initializing", "s") ?? 0
    c.maximumAngularSpeed = try nonNegative(
      excessiveMotion?.angularSpeed, "tracking.excessiveMotion.angularSpeed", "rad/s")
    c.maximumLinearSpeed = try nonNegative(
      excessiveMotion?.linearSpeed, "tracking.excessiveMotion.linearSpeed", "m/s")
    if let minimum = insufficientFeatures?.minimumPoints.value {
      c.minimumFeaturePoints = Int(clamping: minimum)
    }
    c.recoverySeconds = try nonNegative(recovery, "tracking.recovery", "s") ?? 0.5
    var previous = -Double.infinity
    for (index, keyframe) in (states ?? []).enumerated() {
      let field = "tracking.states[\(index)]"
      let t = try time(keyframe.t, field + ".t")
      guard t >= previous else {
        throw TrackingSpecError(field + ".t", "is earlier than the keyframe before it")
      }
      previous = t
      var state: TrackingState?
      if keyframe.state != "auto" {
        guard let named = TrackingState(name: keyframe.state) else {
          throw TrackingSpecError(
            field + ".state",
            "'\(keyframe.state.prefix(40))' is not a tracking state (\(TrackingState.namesList), or auto)"
          )
        }
        state = named
      }
      c.keyframes.append(TrackingKeyframe(t: t, state: state))
    }
    var model = PoseErrorModel()
    // Position σ ≤ 100 m and 100 m/√s: even six σ of a 10⁷-frame replay's drift (3.3·10⁵ s)
    // stay inside the tracks' 10⁶ m bound, so the camera never leaves the world tracks may hold.
    func positionSigma(_ value: Double?, _ field: String, _ unit: String) throws(TrackingSpecError)
      -> Double
    {
      let sigma = try nonNegative(value, field, unit) ?? 0
      guard sigma <= Self.maximumPositionSigma else {
        throw TrackingSpecError(
          field,
          "must be at most \(Int(Self.maximumPositionSigma)) \(unit) (got \(sigma)): a larger "
            + "error would move the camera beyond the 10^6 m tracks are limited to")
      }
      return sigma
    }
    model.positionNoise = try positionSigma(
      error?.noise?.position, "tracking.error.noise.position", "m")
    model.rotationNoise = try rotationSigma(
      error?.noise?.rotation, "tracking.error.noise.rotation", "rad")
    model.positionDrift = try positionSigma(
      error?.drift?.position, "tracking.error.drift.position", "m/√s")
    model.rotationDrift = try rotationSigma(
      error?.drift?.rotation, "tracking.error.drift.rotation", "rad/√s")
    if let scale = error?.scale {
      guard scale.isFinite, scale > -1, scale < 1 else {
        throw TrackingSpecError("tracking.error.scale", "must be a finite number in (−1, 1)")
      }
      model.scale = scale
    }
    c.error = model
    previous = -Double.infinity
    for (index, spec) in (relocalizations ?? []).enumerated() {
      let field = "tracking.relocalizations[\(index)]"
      let t = try time(spec.t, field + ".t")
      guard t >= previous else {
        throw TrackingSpecError(field + ".t", "is earlier than the relocalisation before it")
      }
      previous = t
      let residual = PoseError(
        position: try vector(
          spec.residual?.position, field + ".residual.position", atMost: Self.maximumPositionSigma,
          "m"),
        rotation: try vector(
          spec.residual?.rotation, field + ".residual.rotation", atMost: Self.maximumRotationSigma,
          "rad"))
      c.relocalizations.append(Relocalization(t: t, residual: residual))
    }
    if let rate = frames?.dropRate {
      guard rate.isFinite, rate >= 0, rate <= 1 else {
        throw TrackingSpecError("tracking.frames.dropRate", "must be 0…1 (got \(rate))")
      }
      c.frames.dropRate = rate
    }
    c.frames.jitterSeconds = try nonNegative(frames?.jitter, "tracking.frames.jitter", "s") ?? 0
    previous = -Double.infinity
    for (index, drop) in (frames?.drops ?? []).enumerated() {
      let t = try time(drop, "tracking.frames.drops[\(index)]")
      // Tick 0 always delivers (the session's first frame): a drop there would be lost.
      guard TrackingSimulation.microseconds(t) > 0 else {
        throw TrackingSpecError(
          "tracking.frames.drops[\(index)]",
          "must be after τ = 0 (the session's first frame always arrives)")
      }
      guard t >= previous else {
        throw TrackingSpecError(
          "tracking.frames.drops[\(index)]", "is earlier than the drop before it")
      }
      previous = t
      c.frames.drops.append(t)
    }
    // Compared on the simulation's clock (whole microseconds, `TrackingSimulation`): a start
    // of 1e-7 s is τ = 0 there, and an end within half a microsecond of its start is no later.
    previous = -Double.infinity
    for (index, spec) in (interruptions ?? []).enumerated() {
      let field = "tracking.interruptions[\(index)]"
      let start = try time(spec.start, field + ".start")
      let end = try time(spec.end, field + ".end")
      let startMicros = TrackingSimulation.microseconds(start)
      guard startMicros > max(TrackingSimulation.microseconds(previous), 0) else {
        throw TrackingSpecError(
          field + ".start",
          index == 0
            ? "must be after τ = 0 (the session's first frame), at least 1 µs (got \(start) s)"
            : "must be after the previous interruption's end (\(previous) s) by at least 1 µs")
      }
      guard TrackingSimulation.microseconds(end) > startMicros else {
        throw TrackingSpecError(field + ".end", "must be after start by at least 1 µs")
      }
      let relocalizing =
        try nonNegative(spec.relocalizing, field + ".relocalizing", "s") ?? 1
      c.interruptions.append(
        Interruption(start: start, end: end, relocalizingSeconds: relocalizing))
      previous = end
    }
    return c
  }
}

/// A mistake in the `tracking` section: the field (a path from the scene's root) and why.
public struct TrackingSpecError: Error, Hashable, Sendable, CustomStringConvertible {
  /// E.g. `tracking.error.noise.position`.
  public var field: String
  /// A one-line reason.
  public var reason: String

  /// Creates an error.
  public init(_ field: String, _ reason: String) {
    self.field = field
    self.reason = reason
  }

  /// `field 'F': reason`.
  public var description: String { "field '\(field)': \(reason)" }
}
