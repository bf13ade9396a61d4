/// The finest time step, seconds, that recorded times (camera tracks, camera-image lists) must
/// resolve: a tenth of a millisecond (frames are 1/30 … 1/240 s apart). Double resolves it up
/// to about 5.5 · 10¹¹ s from 0.
public enum TimeResolution {
  /// A tenth of a millisecond.
  public static let seconds = 1e-4

  /// A warning when times as far from 0 as `largest` (seconds) are no longer resolved to
  /// `seconds` (say 10³⁰⁰ s), else nil: `closer` are the things that then fall on one time
  /// ("frames", "images") and `consequence` what the user sees (" (the camera stands still)").
  public static func warning(largest: Double, closer: String, consequence: String = "")
    -> String?
  {
    guard largest.ulp > seconds else { return nil }
    return "the times reach \(largest) s, where a Double resolves only \(largest.ulp) s: "
      + "\(closer) closer together than that fall on one time\(consequence); subtract an "
      + "offset from the times"
  }
}
