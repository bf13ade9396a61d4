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
