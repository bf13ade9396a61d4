import ARRenderCore
import ARScene
import ARSession
import ARText

/// The heads-up display (`arsim render --hud`): draws over each frame what the sessions show
/// on screen (`Session.overlayText()`), and, as ARSim's own addition, the replay time in the
/// bottom-right corner.
///
/// Points to pixels: the output image stands for the device's screen, whose shorter side is
/// taken as 390 UIKit points (an iPhone 12–14 in portrait, the helper-view size of DESIGN §5),
/// so one point is `min(width, height) / 390` pixels; font sizes are rounded to whole pixels
/// and never below `minimumPixelSize` so small goldens stay legible. Text is DejaVu Sans
/// (the apps' San Francisco/Helvetica is not on Linux), drawn by FreeType (ARText).
///
/// Blocks: `fullWidth` styles fill a band across the image (the measure app's text view),
/// text left-aligned at the insets, first baseline at the top inset plus the font's ascender;
/// other styles fit their lines and centre on their placement (`.top`/`.bottom` edges with a
/// 4 pt margin, `.point(u, v)` e.g. a participant's name over its peer).
public struct HeadsUpDisplay: FrameOverlay {
  /// The font.
  public let font: FontFace
  /// Smallest font size drawn, pixels.
  public var minimumPixelSize = 9
  /// Whether to draw the replay time corner label (ARSim's addition).
  public var showsReplayTime = true
  /// The screen's shorter side in UIKit points.
  public static let screenShortSidePoints = 390.0

  /// A HUD drawing with `font`.
  public init(font: FontFace) { self.font = font }

  /// Draws `texts`, then the replay-time label, over `rendered.image` (clipped to it). A
  /// glyph FreeType cannot render leaves the rest of the frame as it is.
  public func draw(_ texts: [OverlayText], on rendered: inout RenderedFrame, frame: Int, t: Double)
  {
    let scale =
      Double(min(rendered.image.width, rendered.image.height)) / Self.screenShortSidePoints
    for text in texts { try? draw(text, on: &rendered.image, scale: scale) }
    if showsReplayTime {
      let label = OverlayText(
        source: "arsim", lines: ["τ " + Self.seconds(t) + " s · frame \(frame)"],
        placement: .bottom, style: .label)
      try? drawCorner(label, on: &rendered.image, scale: scale)
    }
  }

  /// The pixel size for `points` at `scale`.
  func pixelSize(_ points: Double, scale: Double) -> Int {
    max(minimumPixelSize, Int((points * scale).rounded()))
  }

  private func draw(_ text: OverlayText, on image: inout Image, scale: Double) throws(TextError) {
    let style = text.style
    let size = pixelSize(style.fontSizePoints, scale: scale)
    let metrics = try font.lineMetrics(pixelSize: size)
    let inset = (
      top: Int((style.insetsPoints.top * scale).rounded()),
      left: Int((style.insetsPoints.left * scale).rounded()),
      bottom: Int((style.insetsPoints.bottom * scale).rounded()),
      right: Int((style.insetsPoints.right * scale).rounded())
    )
    let textHeight = metrics.lineHeight * text.lines.count
    var widest = 0
    for line in text.lines { widest = max(widest, try font.width(of: line, pixelSize: size)) }
    let naturalHeight = inset.top + textHeight + inset.bottom
    let height = style.heightPoints.map { Int(($0 * scale).rounded()) } ?? naturalHeight
    let width = style.fullWidth ? image.width : inset.left + widest + inset.right
    let margin = Int((4 * scale).rounded())
    let origin: (x: Int, y: Int)
    switch text.placement {
    case .top:
      origin = (style.fullWidth ? 0 : (image.width - width) / 2, style.fullWidth ? 0 : margin)
    case .bottom:
      origin = (
        style.fullWidth ? 0 : (image.width - width) / 2,
        image.height - height - (style.fullWidth ? 0 : margin)
      )
    case .point(let u, let v):
      origin = (Int((u - Double(width) / 2).rounded()), Int((v - Double(height) / 2).rounded()))
    }
    try drawBlock(
      text.lines, style: style, size: size, metrics: metrics, on: &image,
      box: (origin.x, origin.y, width, height), textX: origin.x + inset.left,
      textTop: origin.y + inset.top)
  }

  /// The replay-time label in the bottom-right corner, 4 pt from the edges.
  private func drawCorner(_ text: OverlayText, on image: inout Image, scale: Double)
    throws(TextError)
  {
    let style = text.style
    let size = pixelSize(style.fontSizePoints, scale: scale)
    let metrics = try font.lineMetrics(pixelSize: size)
    let padX = Int((style.insetsPoints.left * scale).rounded())
    let padY = Int((style.insetsPoints.top * scale).rounded())
    let width = try font.width(of: text.lines[0], pixelSize: size) + 2 * padX
    let height = metrics.lineHeight + 2 * padY
    let margin = Int((4 * scale).rounded())
    let x = image.width - width - margin
    let y = image.height - height - margin
    try drawBlock(
      text.lines, style: style, size: size, metrics: metrics, on: &image,
      box: (x, y, width, height), textX: x + padX, textTop: y + padY)
  }

  private func drawBlock(
    _ lines: [String], style: OverlayText.Style, size: Int, metrics: LineMetrics,
    on image: inout Image, box: (x: Int, y: Int, width: Int, height: Int), textX: Int,
    textTop: Int
  ) throws(TextError) {
    if let background = style.background {
      image.fillRectangle(
        x: box.x, y: box.y, width: box.width, height: box.height, color: Self.color(background))
    }
    let color = Self.color(style.textColor)
    for (index, line) in lines.enumerated() {
      // Line boxes of the font's line height; the baseline sits an ascender below their top.
      let baseline = textTop + index * metrics.lineHeight + metrics.ascender
      try image.drawText(
        line, font: font, pixelSize: size, x: textX, baseline: baseline, color: color)
    }
  }

  static func color(_ c: Color) -> TextColor {
    func byte(_ x: Double) -> UInt8 { UInt8((min(1, max(0, x)) * 255).rounded()) }
    return TextColor(
      red: byte(c.red), green: byte(c.green), blue: byte(c.blue), alpha: byte(c.alpha))
  }

  /// τ with three decimals, no locale.
  static func seconds(_ t: Double) -> String {
    let millis = Int((max(0, t) * 1000).rounded())
    let fraction = String(millis % 1000)
    return String(millis / 1000) + "." + String(repeating: "0", count: 3 - fraction.count)
      + fraction
  }
}
