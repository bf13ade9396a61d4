import ARRenderCore

/// Draws over each rendered frame before the sinks get it: the on-screen text the sessions
/// report (`Session.overlayText()`), e.g. a HUD with an app's labels. Runs on the scene
/// thread, in frame order.
public protocol FrameOverlay: Sendable {
  /// Draws `texts` (every session's, in session order) over `rendered.image`.
  func draw(_ texts: [OverlayText], on rendered: inout RenderedFrame, frame: Int, t: Double)
}
