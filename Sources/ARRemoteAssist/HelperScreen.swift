import ARMath
import ARScene

/// The remote helper's screen in AR Remote Support: the full-screen view on which the helper
/// draws while watching the broadcaster's video (SourceApps.md §2.4), with the delays between
/// the two devices.
///
/// Three moments name every time of a helper point (Documentation/StrokeLog.md):
/// - τ_draw: the helper touches the screen. A message is sent at its log time `t`, when its
///   last point is drawn; the app gathers one point per pan event, so point i of an n-point
///   message was drawn at `t − (n − 1 − i) · pointInterval` (`drawTime`);
/// - τ_seen = τ_draw − `videoLatency`: the broadcaster frame the helper was looking at; a point
///   maps to a pixel of that frame (`videoView`) and, through that frame's viewport camera, to a
///   ray in the world;
/// - τ_arrive = τ_draw + `dataLatency` (+ transport effects): the message reaches the
///   broadcaster, whose session queues its points and pops them at later ticks.
///
/// The broadcaster's video is its output image (`ARVideoKit` records the rendered view), so a
/// video pixel is an output pixel of the viewport camera (DESIGN §3).
public struct HelperScreen: Hashable, Sendable {
  /// The view's width in UIKit points (the app sends points, not pixels).
  public var width: Double = 390
  /// The view's height in UIKit points.
  public var height: Double = 844
  /// How the broadcaster's video fills the view: aspect fill is Agora's `.hidden` render mode,
  /// the one the app's helper uses.
  public var contentMode: VideoView.ContentMode = .aspectFill
  /// Seconds from a broadcaster frame to the helper seeing it (encode, network, decode).
  public var videoLatency: Double = 0
  /// Seconds from the helper sending a message to the broadcaster receiving it.
  public var dataLatency: Double = 0
  /// Seconds between the helper's pan events, i.e. between the points of a message (UIKit
  /// delivers one per display frame: 1/60 s).
  public var pointInterval: Double = 1.0 / 60

  /// Creates a screen of `width` × `height` points (default a 390 × 844 point iPhone in
  /// portrait), aspect fill and no delays unless given.
  public init(
    width: Double = 390, height: Double = 844, contentMode: VideoView.ContentMode = .aspectFill,
    videoLatency: Double = 0, dataLatency: Double = 0
  ) {
    self.width = width
    self.height = height
    self.contentMode = contentMode
    self.videoLatency = videoLatency
    self.dataLatency = dataLatency
  }

  /// The view showing a `width` × `height` pixel broadcaster video.
  public func videoView(videoWidth: Int, videoHeight: Int) -> VideoView {
    VideoView(
      width: width, height: height, videoWidth: videoWidth, videoHeight: videoHeight,
      contentMode: contentMode)
  }

  /// τ_draw of point `pointIndex` (0-based) of a `pointCount`-point message sent at
  /// `sendTime`: the last point is drawn as the message is sent, the earlier ones one
  /// `pointInterval` apart before it (seconds).
  public func drawTime(sendTime: Double, pointIndex: Int, pointCount: Int) -> Double {
    sendTime - Double(max(0, pointCount - 1 - pointIndex)) * pointInterval
  }

  /// τ_seen for a point drawn at τ_draw (seconds).
  public func seenTime(drawTime: Double) -> Double { drawTime - videoLatency }

  /// τ_arrive for a message sent at τ_draw, without transport effects (seconds).
  public func arrivalTime(drawTime: Double) -> Double { drawTime + dataLatency }
}
