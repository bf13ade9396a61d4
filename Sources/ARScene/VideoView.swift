import ARMath

/// A view showing a video image, scaled uniformly and centred, as a remote viewer shows a
/// received video stream (the remote-assist helper's full-screen view of the broadcaster,
/// SourceApps.md §2.4).
///
/// Units and frames:
/// - view positions are UIKit points measured **from the view centre**, x right, y down (how
///   AR Remote Support sends touches, SourceApps.md §2.4);
/// - video positions are pixels of the video image, origin top-left, u right, v down, pixel
///   centres at integers (DESIGN §3), so pixel (0, 0) covers u ∈ [−0.5, 0.5).
///
/// With `s` = `pointsPerPixel`, the view centre shows the image centre and
/// `u = x / s + (W − 1) / 2`, `v = y / s + (H − 1) / 2`. The video covers the rectangle
/// |x| ≤ s·W/2, |y| ≤ s·H/2 (edges included).
public struct VideoView: Hashable, Sendable {
  /// How the image is fitted into the view.
  public enum ContentMode: String, Hashable, Sendable, CaseIterable {
    /// Scaled to cover the whole view, the overflow cropped (UIKit's `scaleAspectFill`; Agora's
    /// `AgoraVideoRenderMode.hidden`, the render mode AR Remote Support's helper uses).
    case aspectFill
    /// Scaled to fit inside the view, with bars on the uncovered sides (UIKit's `scaleAspectFit`;
    /// Agora's `.fit`).
    case aspectFit
  }

  /// Where a view position falls.
  public enum Location: Hashable, Sendable {
    /// On the video: the image pixel (u, v) shown there.
    case pixel(u: Double, v: Double)
    /// Inside the view but on a bar of an aspect-fit view: no pixel.
    case letterbox
    /// Outside the view and outside the video: no pixel.
    case outside
  }

  /// The view's width in points (> 0).
  public var width: Double
  /// The view's height in points (> 0).
  public var height: Double
  /// The video image's width in pixels (> 0).
  public var videoWidth: Int
  /// The video image's height in pixels (> 0).
  public var videoHeight: Int
  /// How the image is fitted.
  public var contentMode: ContentMode

  /// Creates a view of `width` × `height` points showing a `videoWidth` × `videoHeight` pixel
  /// image. Sizes are expected positive; a non-positive size maps every position `outside`.
  public init(
    width: Double, height: Double, videoWidth: Int, videoHeight: Int,
    contentMode: ContentMode = .aspectFill
  ) {
    self.width = width
    self.height = height
    self.videoWidth = videoWidth
    self.videoHeight = videoHeight
    self.contentMode = contentMode
  }

  /// Points per video pixel: `max(w/W, h/H)` for aspect fill, `min(w/W, h/H)` for aspect fit.
  public var pointsPerPixel: Double {
    let sx = width / Double(videoWidth)
    let sy = height / Double(videoHeight)
    switch contentMode {
    case .aspectFill: return max(sx, sy)
    case .aspectFit: return min(sx, sy)
    }
  }

  /// Whether the sizes are usable (all positive and finite).
  public var isValid: Bool {
    width > 0 && height > 0 && width.isFinite && height.isFinite && videoWidth > 0
      && videoHeight > 0
  }

  /// The video pixel shown at a view position (points from the view centre, y down), or why
  /// there is none.
  public func locate(_ point: Vector2) -> Location {
    guard isValid, point.x.isFinite, point.y.isFinite else { return .outside }
    let s = pointsPerPixel
    let onVideo =
      abs(point.x) <= s * Double(videoWidth) / 2 && abs(point.y) <= s * Double(videoHeight) / 2
    if onVideo {
      return .pixel(
        u: point.x / s + Double(videoWidth - 1) / 2, v: point.y / s + Double(videoHeight - 1) / 2)
    }
    let inView = abs(point.x) <= width / 2 && abs(point.y) <= height / 2
    return inView ? .letterbox : .outside
  }

  /// The view position (points from the view centre, y down) showing video pixel (u, v); the
  /// inverse of `locate` on the video. Positions outside the view are returned as they are
  /// (cropped by aspect fill).
  public func point(u: Double, v: Double) -> Vector2 {
    let s = pointsPerPixel
    return Vector2((u - Double(videoWidth - 1) / 2) * s, (v - Double(videoHeight - 1) / 2) * s)
  }
}
