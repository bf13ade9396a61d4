import ARScene

/// Text a session would show on screen over the camera image (a UILabel, a status view): the
/// lines and where they sit. Sessions describe it (`Session.overlayText()`); a `FrameOverlay`
/// of the frame loop draws it over the rasterized frame (the HUD). No drawing here, so session
/// targets need no font or image code.
public struct OverlayText: Hashable, Sendable {
  /// Where the text block sits in the output image.
  public enum Placement: Hashable, Sendable {
    /// Top edge, centred (the measure app's status label).
    case top
    /// Bottom edge, centred.
    case bottom
    /// Centred on an output pixel (u right, v down, output pixels), e.g. a label that follows
    /// a node's projection.
    case point(u: Double, v: Double)
  }

  /// The session that shows it (its trace key, e.g. `measure`).
  public var source: String
  /// The lines, top to bottom.
  public var lines: [String]
  /// Where the block sits.
  public var placement: Placement

  /// How the block looks.
  public var style: Style

  /// Creates on-screen text.
  public init(
    source: String, lines: [String], placement: Placement = .top, style: Style = .label
  ) {
    self.source = source
    self.lines = lines
    self.placement = placement
    self.style = style
  }

  /// The look of a text block, in UIKit points of the device's screen (the overlay scales
  /// points to output pixels) and sRGB-encoded colours with straight alpha.
  public struct Style: Hashable, Sendable {
    /// The font's size (em), points.
    public var fontSizePoints: Double
    /// The text colour.
    public var textColor: Color
    /// The block's background (nil: none).
    public var background: Color?
    /// Whether the block spans the screen's width (a view pinned to leading and trailing
    /// edges), text left-aligned; otherwise it fits the text, centred on its placement.
    public var fullWidth: Bool
    /// The block's height in points (nil: fits the lines).
    public var heightPoints: Double?
    /// Space between the block's edges and the text: top, left, bottom, right, points.
    public var insetsPoints: (top: Double, left: Double, bottom: Double, right: Double)

    /// Creates a style.
    public init(
      fontSizePoints: Double, textColor: Color, background: Color?, fullWidth: Bool,
      heightPoints: Double?,
      insetsPoints: (top: Double, left: Double, bottom: Double, right: Double)
    ) {
      self.fontSizePoints = fontSizePoints
      self.textColor = textColor
      self.background = background
      self.fullWidth = fullWidth
      self.heightPoints = heightPoints
      self.insetsPoints = insetsPoints
    }

    /// A small label: white 12 pt text on a 55 % black box fitting the text (ARSim's own
    /// look for name tags and the replay time).
    public static let label = Style(
      fontSizePoints: 12, textColor: .white,
      background: Color(red: 0, green: 0, blue: 0, alpha: 0.55),
      fullWidth: false, heightPoints: nil, insetsPoints: (3, 5, 3, 5))

    /// Equal when every field is (the insets tuple compared member by member).
    public static func == (a: Style, b: Style) -> Bool {
      a.fontSizePoints == b.fontSizePoints && a.textColor == b.textColor
        && a.background == b.background && a.fullWidth == b.fullWidth
        && a.heightPoints == b.heightPoints && a.insetsPoints == b.insetsPoints
    }

    /// Hashes every field.
    public func hash(into hasher: inout Hasher) {
      hasher.combine(fontSizePoints)
      hasher.combine(textColor)
      hasher.combine(background)
      hasher.combine(fullWidth)
      hasher.combine(heightPoints)
      for inset in [insetsPoints.top, insetsPoints.left, insetsPoints.bottom, insetsPoints.right] {
        hasher.combine(inset)
      }
    }
  }
}
