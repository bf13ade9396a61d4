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

  /// Creates on-screen text.
  public init(source: String, lines: [String], placement: Placement = .top) {
    self.source = source
    self.lines = lines
    self.placement = placement
  }
}
