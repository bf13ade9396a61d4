import ARSession

extension MeasureSession {
  /// The app's text for a tracking state, exactly (`getTrackigDescription()`, SourceApps.md
  /// §5.2; seed 003): `""` before ARKit first reports a state (the app's `trackingState` is
  /// nil until then) and for `limited(relocalizing)`, which the app's switch has no case for
  /// (it was written for iOS 11.0; ARKit added the reason in 11.3).
  public static func trackingDescription(_ state: TrackingState?) -> String {
    switch state {
    case nil: ""
    case .notAvailable: "TRACKING UNAVAILABLE"
    case .normal: "TRACKING NORMAL"
    case .limited(.excessiveMotion): "TRACKING LIMITED - Too much camera movement"
    case .limited(.insufficientFeatures): "TRACKING LIMITED - Not enough surface detail"
    case .limited(.initializing): "INITIALIZING"
    case .limited(.relocalizing): ""
    }
  }
}
