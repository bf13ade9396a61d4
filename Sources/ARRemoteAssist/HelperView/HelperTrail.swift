import ARFormats
import ARMath
import ARScene

/// The helper's own touches, as its screen shows them: every point of a stroke log with the
/// time it was drawn (τ_draw, `HelperScreen.drawTime`) and the line colour then.
public struct HelperTrail: Sendable {
  /// One drawn point.
  public struct Touch: Hashable, Sendable {
    /// τ_draw, seconds.
    public var t: Double
    /// UIKit points from the helper's view centre, y down.
    public var point: Vector2
    /// The line colour picked when it was drawn (systemBlue before any `color:`).
    public var color: Color
  }

  /// Every touch, in log order.
  public var touches: [Touch]
  /// How long a touch stays on screen, seconds.
  public var duration: Double

  /// The touches of `messages` (every point parsed, as the helper drew them, whatever the
  /// receiver later drops), each visible for `duration` seconds after it was drawn.
  public init(messages: [StrokeMessage], helper: HelperScreen, duration: Double = 1) {
    var color = Color.systemBlue
    var touches: [Touch] = []
    for message in messages {
      switch RemoteAssistMessage.classify(message.text, mode: .corrected) {
      case .color(let components?, _):
        let c = components.map { min(1, max(0, $0)) }
        color = Color(red: c[0], green: c[1], blue: c[2], alpha: c[3])
      case .points(let points, let dropped, let indices):
        for (point, index) in zip(points, indices) {
          let t = helper.drawTime(
            sendTime: message.t, pointIndex: index, pointCount: points.count + dropped)
          touches.append(Touch(t: t, point: point, color: color))
        }
      default:
        break
      }
    }
    self.touches = touches
    self.duration = duration
  }

  /// The touches on screen at τ: drawn at or before τ and less than `duration` ago.
  public func visible(at t: Double) -> [Touch] {
    touches.filter { $0.t <= t && t - $0.t < duration }
  }
}
