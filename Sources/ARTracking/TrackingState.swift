/// ARKit's camera tracking state (`ARCamera.TrackingState`): `normal`, `limited(reason)` or
/// `notAvailable`, with `ARCamera.TrackingState.Reason`'s four reasons.
///
/// Scene files and tracks name a state as `normal`, `notAvailable` or `limited(REASON)`
/// (`limited(initializing)`, `limited(excessiveMotion)`, `limited(insufficientFeatures)`,
/// `limited(relocalizing)`); the measure app's older names (`initializing`,
/// `limitedExcessiveMotion`, `limitedInsufficientFeatures`) are accepted too.
public enum TrackingState: Hashable, Sendable, CustomStringConvertible {
  /// `.normal`: positional tracking works.
  case normal
  /// `.limited(reason)`: tracking works with questionable quality.
  case limited(Reason)
  /// `.notAvailable`: no tracking.
  case notAvailable

  /// `ARCamera.TrackingState.Reason`.
  public enum Reason: String, CaseIterable, Hashable, Sendable {
    /// `.initializing`: the session has not gathered enough data yet (its first moments).
    case initializing
    /// `.excessiveMotion`: the device moves too fast for image-based tracking.
    case excessiveMotion
    /// `.insufficientFeatures`: too few distinguishable features in view.
    case insufficientFeatures
    /// `.relocalizing`: the session resumes after an interruption (iOS 11.3 and later).
    case relocalizing
  }

  /// Every state, in ARKit's declaration order of the reasons.
  public static let allStates: [TrackingState] =
    [.normal] + Reason.allCases.map { .limited($0) } + [.notAvailable]

  /// The state's name: `normal`, `notAvailable`, `limited(excessiveMotion)`, …
  public var name: String {
    switch self {
    case .normal: "normal"
    case .notAvailable: "notAvailable"
    case .limited(let reason): "limited(\(reason.rawValue))"
    }
  }

  /// `name`.
  public var description: String { name }

  /// The case without its reason, as trace lines and events write it: `normal`, `limited`,
  /// `notAvailable`.
  public var caseName: String {
    switch self {
    case .normal: "normal"
    case .notAvailable: "notAvailable"
    case .limited: "limited"
    }
  }

  /// The reason of a limited state, else nil.
  public var reason: Reason? {
    if case .limited(let reason) = self { return reason }
    return nil
  }

  /// The state a name gives (`name`, or one of the measure app's older names); nil for
  /// anything else.
  public init?(name: String) {
    switch name {
    case "normal": self = .normal
    case "notAvailable": self = .notAvailable
    case "initializing": self = .limited(.initializing)
    case "limitedExcessiveMotion": self = .limited(.excessiveMotion)
    case "limitedInsufficientFeatures": self = .limited(.insufficientFeatures)
    default:
      guard name.hasPrefix("limited("), name.hasSuffix(")"),
        let reason = Reason(rawValue: String(name.dropFirst(8).dropLast()))
      else { return nil }
      self = .limited(reason)
    }
  }

  /// The accepted names, for error messages.
  public static var namesList: String { allStates.map(\.name).joined(separator: ", ") }

  /// What ARKit's coaching overlay (`ARCoachingOverlayView`) would tell the user in this
  /// state, in ARSim's words (the overlay's exact strings are not published); nil for
  /// `normal`, when the overlay is hidden.
  public var coachingText: String? {
    switch self {
    case .normal: nil
    case .notAvailable: "Tracking unavailable"
    case .limited(.initializing): "Move iPhone to start"
    case .limited(.excessiveMotion): "Move iPhone more slowly"
    case .limited(.insufficientFeatures): "Point iPhone at a surface with more detail"
    case .limited(.relocalizing): "Move iPhone back to where you were"
    }
  }
}
