import ARRender
import ARSession

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

/// Where rendered frames go: PNG files with their trace and events lines (the default,
/// `PNGFrameSink`), later a socket stream or a video encoder. The frame loop calls `submit`
/// once per written frame, in frame order, on the scene thread, then `finish` once.
///
/// A sink may work on other threads (the PNG sink encodes while the next frame renders) but
/// must keep frame order in what it publishes; `submit` may block to bound memory.
public protocol FrameSink: AnyObject, Sendable {
  /// Takes one frame.
  /// - Throws: an earlier frame's failure (the loop stops; frames already published stay).
  func submit(_ frame: OutputFrame) throws

  /// Waits until every submitted frame is published; returns per-frame timings in frame order
  /// (the loop reports the first sink's in run.json and the summary).
  /// - Throws: the first failure.
  func finish() throws -> [FrameTiming]
}

/// What a sink is told when a run makes it.
public struct FrameSinkSetup: Sendable {
  /// The run's output folder (a sink writing files puts them here, or in a subfolder).
  public var outputDirectory: String
  /// The scene.
  public var scene: ReplayScene
  /// Frames this run writes.
  public var frames: ClosedRange<Int>

  /// Creates a setup.
  public init(outputDirectory: String, scene: ReplayScene, frames: ClosedRange<Int>) {
    self.outputDirectory = outputDirectory
    self.scene = scene
    self.frames = frames
  }
}

/// Draws over each rendered frame before the sinks get it: the on-screen text the sessions
/// report (`Session.overlayText()`), e.g. a HUD with an app's labels. Runs on the scene
/// thread, in frame order.
public protocol FrameOverlay: Sendable {
  /// Draws `texts` (every session's, in session order) over `rendered.image`.
  func draw(_ texts: [OverlayText], on rendered: inout RenderedFrame, frame: Int, t: Double)
}
