/// An animation's pacing: a cubic Bézier from (0, 0) to (1, 1) with two control points, mapping
/// elapsed fraction x to progress y, as Core Animation's and RealityKit's timing functions.
public struct TimingCurve: Hashable, Sendable {
  /// The first control point (x in 0…1).
  public var controlPoint1: SIMD2<Double>
  /// The second control point (x in 0…1).
  public var controlPoint2: SIMD2<Double>

  /// Creates a curve.
  public init(controlPoint1: SIMD2<Double>, controlPoint2: SIMD2<Double>) {
    self.controlPoint1 = controlPoint1
    self.controlPoint2 = controlPoint2
  }

  /// RealityKit's `AnimationTimingFunction.default`, the curve `move(to:relativeTo:duration:)`
  /// uses when no timing function is given: Bézier (0.25, 0.1), (0.25, 1.0).
  ///
  /// Apple documents RealityKit's `.default` only as "the default curve", "an ease transition"
  /// (AnimationTimingFunction and SpinAction.timingFunction pages); the control points are Core
  /// Animation's system default, `CAMediaTimingFunctionName.default` ("a Bézier timing function
  /// with the control points (0.25,0.1) and (0.25,1.0)", developer.apple.com/documentation/
  /// quartzcore/camediatimingfunctionname/default), which is also CSS's `ease`. That RealityKit
  /// uses the same points is an inference, not a documented fact.
  public static let realityKitDefault = TimingCurve(
    controlPoint1: SIMD2(0.25, 0.1), controlPoint2: SIMD2(0.25, 1.0))

  /// No easing.
  public static let linear = TimingCurve(
    controlPoint1: SIMD2(0, 0), controlPoint2: SIMD2(1, 1))

  /// The progress at elapsed fraction `x` (clamped to 0…1): y(s) where x(s) = x.
  ///
  /// x(s) is increasing for control x in 0…1, so s is found by bisection to 2⁻⁵² (52 halvings,
  /// a fixed count: the same bits on every machine), then y(s) is evaluated.
  public func progress(_ x: Double) -> Double {
    guard x > 0 else { return 0 }
    guard x < 1 else { return 1 }
    var low = 0.0
    var high = 1.0
    for _ in 0..<52 {
      let middle = (low + high) / 2
      if Self.bezier(middle, controlPoint1.x, controlPoint2.x) < x {
        low = middle
      } else {
        high = middle
      }
    }
    return Self.bezier((low + high) / 2, controlPoint1.y, controlPoint2.y)
  }

  /// One coordinate of the cubic Bézier 0, p1, p2, 1 at parameter s.
  static func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
    let r = 1 - s
    return 3 * r * r * s * p1 + 3 * r * s * s * p2 + s * s * s
  }
}
