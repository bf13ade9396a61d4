import ARRenderCore

/// One rendered output frame as the frame loop hands it to its sinks: the image (and depth
/// map), its index and replay time, its trace and events lines, and what the scene thread spent
/// on it.
public struct OutputFrame: Sendable {
  /// Output frame index (0-based).
  public var frame: Int
  /// Replay time τ of the frame, seconds (`FrameSchedule.time(ofFrame:)`).
  public var t: Double
  /// The image, after any `FrameOverlay`, and the depth map when the scene writes depth.
  public var rendered: RenderedFrame
  /// The frame's `trace.jsonl` line (with its newline).
  public var traceLine: String
  /// The `events.jsonl` lines of the ticks since the previous frame ("" when none).
  public var eventLines: String
  /// Scene-thread time spent advancing the ticks up to this frame.
  public var sceneUpdate: Duration
  /// Scene-thread time spent rendering it.
  public var render: Duration
  /// Scene-thread time spent building its trace and events lines.
  public var traceLineTime: Duration = .zero

  /// Creates an output frame.
  public init(
    frame: Int, t: Double, rendered: RenderedFrame, traceLine: String, eventLines: String,
    sceneUpdate: Duration = .zero, render: Duration = .zero
  ) {
    self.frame = frame
    self.t = t
    self.rendered = rendered
    self.traceLine = traceLine
    self.eventLines = eventLines
    self.sceneUpdate = sceneUpdate
    self.render = render
  }
}
