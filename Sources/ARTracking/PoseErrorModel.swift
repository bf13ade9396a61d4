import ARMath

/// The tracker's pose error, as parameters: white noise, random-walk drift and a scale error.
///
/// Units: white noise σ per axis in metres and radians (each tick draws fresh, independent
/// values); drift as random-walk densities per axis in m/√s and rad/√s (each tick of length
/// Δt adds a normal step of σ·√Δt per axis, so after τ seconds the drift's σ is density·√τ);
/// `scale` a relative error of the distances travelled (0.02 = the tracker believes the
/// camera moved 2 % farther than it did), about the camera's position at τ = 0.
public struct PoseErrorModel: Hashable, Sendable {
  /// White-noise σ of each position axis, metres.
  public var positionNoise: Double = 0
  /// White-noise σ of each rotation-vector axis, radians.
  public var rotationNoise: Double = 0
  /// Random-walk density of each position axis, m/√s.
  public var positionDrift: Double = 0
  /// Random-walk density of each rotation-vector axis, rad/√s.
  public var rotationDrift: Double = 0
  /// Relative scale error of travelled distances (0 = none).
  public var scale: Double = 0

  /// No error.
  public init() {}

  /// Whether every parameter is zero (the estimate is then the true pose, bit for bit).
  public var isZero: Bool {
    positionNoise == 0 && rotationNoise == 0 && positionDrift == 0 && rotationDrift == 0
      && scale == 0
  }
}

/// One tick's pose error: the estimate's position is the (scaled) true position plus
/// `position`, its orientation `exp(rotation)` (a world-frame rotation vector, radians) times
/// the true orientation. The error is applied about the camera's centre, so the same error
/// gives the same estimate for the capture and the viewport camera.
public struct PoseError: Hashable, Sendable {
  /// Position error, world metres.
  public var position: Vector3
  /// Rotation error as a rotation vector (axis · angle), world frame, radians.
  public var rotation: Vector3

  /// No error.
  public static let zero = PoseError(position: .zero, rotation: .zero)

  /// Creates an error.
  public init(position: Vector3, rotation: Vector3) {
    self.position = position
    self.rotation = rotation
  }

  /// `true` applied: position + error, exp(rotation) · orientation; `true` itself, unchanged,
  /// when the error is zero.
  public func applied(to pose: RigidTransform) -> RigidTransform {
    guard self != .zero else { return pose }
    let rotated =
      rotation == .zero ? pose.rotation : PortableMath.rotation(vector: rotation) * pose.rotation
    return RigidTransform(rotation: rotated, translation: pose.translation + position)
  }
}

/// The error process of one run: draws each tick's noise and drift step from its own seeded
/// streams, in tick order (deterministic: the same seed gives the same errors on every
/// machine).
public struct PoseErrorProcess: Hashable, Sendable {
  /// The parameters.
  public let model: PoseErrorModel
  /// The accumulated random walk (the drift), before noise.
  public private(set) var drift = PoseError.zero
  private var noiseStream: GaussianStream
  private var driftStream: GaussianStream

  /// A process from `model` and `seed`: noise and drift draw from separate streams (seeds
  /// derived from `seed`), so turning one on does not change the other's values.
  public init(model: PoseErrorModel, seed: UInt64) {
    self.model = model
    noiseStream = GaussianStream(seed: seed ^ 0x6E6F_6973_6500_0001)  // "noise"
    driftStream = GaussianStream(seed: seed ^ 0x6472_6966_7400_0002)  // "drift"
  }

  /// Advances the drift by a step of `seconds` (≥ 0) and returns this tick's error: drift
  /// plus fresh white noise. Draws nothing for a parameter that is zero.
  public mutating func step(seconds: Double) -> PoseError {
    let root = seconds > 0 ? seconds.squareRoot() : 0
    if model.positionDrift > 0 {
      drift.position += driftStream.nextVector() * (model.positionDrift * root)
    }
    if model.rotationDrift > 0 {
      drift.rotation += driftStream.nextVector() * (model.rotationDrift * root)
    }
    var error = drift
    if model.positionNoise > 0 { error.position += noiseStream.nextVector() * model.positionNoise }
    if model.rotationNoise > 0 { error.rotation += noiseStream.nextVector() * model.rotationNoise }
    return error
  }

  /// Sets the accumulated drift (a relocalisation re-aligns the estimated world: the drift
  /// becomes the jump's residual error).
  public mutating func resetDrift(to error: PoseError) { drift = error }
}
