import ARMath
import ARSession

/// An entity's transform under RealityKit's `move(to:relativeTo:duration:)` and
/// `stopAllAnimations()`, as CollaboratAR drives its peers and models.
///
/// A move runs from the transform shown when it starts to the target over `duration`, paced by
/// `TimingCurve.realityKitDefault`: translation and scale interpolate linearly, rotation by
/// shortest-path slerp. Stopping all animations freezes the entity where it is shown. So an
/// update every 0.3 s with 0.4 s moves cuts each move short and starts the next from where the
/// last one had got to. Times are integer microseconds of τ.
public struct AnimatedTransform: Hashable, Sendable {
  /// The transform when no move runs (the start of a running one).
  public private(set) var resting: EntityTransform
  /// The running move, if any.
  public private(set) var move: Move?

  /// One `move(to:…)`.
  public struct Move: Hashable, Sendable {
    /// Where it starts.
    public var from: EntityTransform
    /// Where it ends.
    public var to: EntityTransform
    /// Start τ, µs.
    public var startMicroseconds: Int64
    /// Duration, µs (> 0).
    public var durationMicroseconds: Int64
    /// The pacing.
    public var curve: TimingCurve
  }

  /// The app's remote-update move duration, seconds (`duration: 0.4`).
  public static let appMoveSeconds = 0.4

  /// An entity placed at `transform` (created with it; no animation).
  public init(_ transform: EntityTransform) {
    resting = transform
    move = nil
  }

  /// The transform shown at `microseconds`.
  public func value(at microseconds: Int64) -> EntityTransform {
    guard let move else { return resting }
    let elapsed = Double(microseconds - move.startMicroseconds)
    let fraction = min(1, max(0, elapsed / Double(move.durationMicroseconds)))
    let p = move.curve.progress(fraction)
    return Self.interpolate(move.from, move.to, p)
  }

  /// `stopAllAnimations()`: the entity stays where it is shown at `microseconds`.
  public mutating func stopAllAnimations(at microseconds: Int64) {
    resting = value(at: microseconds)
    move = nil
  }

  /// `move(to:relativeTo: parent, duration:)` starting at `microseconds` from the shown
  /// transform; a duration ≤ 0 jumps.
  public mutating func move(
    to target: EntityTransform, at microseconds: Int64, durationSeconds: Double,
    curve: TimingCurve = .realityKitDefault
  ) {
    let start = value(at: microseconds)
    let duration = ReplayTime.microseconds(durationSeconds)
    guard duration > 0 else {
      resting = target
      move = nil
      return
    }
    resting = start
    move = Move(
      from: start, to: target, startMicroseconds: microseconds, durationMicroseconds: duration,
      curve: curve)
  }

  /// The app's handling of a remote transform (`CollabModel.update(with:)`,
  /// `HasPeer.update(with:)`): stop all animations, then move over 0.4 s only when translation,
  /// scale or rotation differ from the shown transform by more than 1e-5.
  /// - Returns: whether a move started.
  @discardableResult
  public mutating func applyRemoteUpdate(_ target: EntityTransform, at microseconds: Int64) -> Bool
  {
    stopAllAnimations(at: microseconds)
    guard resting.differs(from: target) else { return false }
    move(to: target, at: microseconds, durationSeconds: Self.appMoveSeconds)
    return true
  }

  /// Linear translation and scale, shortest-path slerp rotation, at progress `p`, in `Double`
  /// rounded to `Float`.
  static func interpolate(_ a: EntityTransform, _ b: EntityTransform, _ p: Double)
    -> EntityTransform
  {
    if p <= 0 { return a }
    if p >= 1 { return b }
    func lerp(_ x: SIMD3<Float>, _ y: SIMD3<Float>) -> SIMD3<Float> {
      let u = SIMD3<Double>(x)
      return SIMD3<Float>(u + (SIMD3<Double>(y) - u) * p)
    }
    let q = a.quaternion.slerp(to: b.quaternion, t: p)
    return EntityTransform(
      scale: lerp(a.scale, b.scale),
      rotation: SIMD4(Float(q.x), Float(q.y), Float(q.z), Float(q.w)),
      translation: lerp(a.translation, b.translation))
  }
}
