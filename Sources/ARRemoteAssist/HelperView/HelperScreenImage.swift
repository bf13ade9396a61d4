import ARMath
import ARRenderCore
import ARScene

/// Draws the helper's screen: the broadcaster frame it sees, fitted as its view shows it
/// (`VideoView`: aspect fill crops, aspect fit leaves black bars), and its touch trail on top.
///
/// The image has one pixel per UIKit point (`HelperScreen.width` × `height`, rounded); a pixel
/// centre (X, Y) is the view point (X + 0.5 − w/2, Y + 0.5 − h/2) from the centre, y down,
/// which shows video pixel `VideoView.locate` (nearest video pixel, no filtering). Touches are
/// discs of `touchRadius` points in their line colour, 80 % opaque (the app's local preview
/// draws 25-point round layers).
public struct HelperScreenImage: Sendable {
  /// The helper's screen.
  public var helper: HelperScreen
  /// Touch disc radius, points.
  public var touchRadius: Double = 6

  /// Creates a drawer for `helper`'s screen.
  public init(helper: HelperScreen) { self.helper = helper }

  /// The screen showing `video` (nil: nothing received yet, black) with `touches`.
  public func draw(video: Image?, videoWidth: Int, videoHeight: Int, touches: [HelperTrail.Touch])
    -> Image
  {
    let width = max(1, Int(helper.width.rounded()))
    let height = max(1, Int(helper.height.rounded()))
    var image = Image(width: width, height: height)
    let view = helper.videoView(videoWidth: videoWidth, videoHeight: videoHeight)
    if let video {
      for y in 0..<height {
        for x in 0..<width {
          let point = Vector2(
            Double(x) + 0.5 - helper.width / 2, Double(y) + 0.5 - helper.height / 2)
          guard case .pixel(let u, let v) = view.locate(point) else { continue }
          let pu = min(video.width - 1, max(0, Int(u.rounded())))
          let pv = min(video.height - 1, max(0, Int(v.rounded())))
          image[x, y] = video[pu, pv]
        }
      }
    }
    for touch in touches { disc(touch, on: &image) }
    return image
  }

  /// A filled disc blended over `image` (pixel centres within `touchRadius` of the touch).
  private func disc(_ touch: HelperTrail.Touch, on image: inout Image) {
    let cx = touch.point.x + helper.width / 2 - 0.5  // pixel coordinates of the centre
    let cy = touch.point.y + helper.height / 2 - 0.5
    let r = touchRadius
    let alpha = 0.8 * touch.color.alpha
    let colour = [touch.color.red, touch.color.green, touch.color.blue]
    let y0 = max(0, Int((cy - r).rounded(.down)))
    let y1 = min(image.height - 1, Int((cy + r).rounded(.up)))
    let x0 = max(0, Int((cx - r).rounded(.down)))
    let x1 = min(image.width - 1, Int((cx + r).rounded(.up)))
    guard y0 <= y1, x0 <= x1 else { return }  // off screen
    func blend(_ old: UInt8, _ c: Double) -> UInt8 {
      UInt8(min(255, max(0, (Double(old) * (1 - alpha) + c * 255 * alpha).rounded())))
    }
    for y in y0...y1 {
      for x in x0...x1
      where (Double(x) - cx) * (Double(x) - cx) + (Double(y) - cy) * (Double(y) - cy) <= r * r {
        let old = image[x, y]
        image[x, y] = (
          blend(old.r, colour[0]), blend(old.g, colour[1]), blend(old.b, colour[2]), 255
        )
      }
    }
  }
}
