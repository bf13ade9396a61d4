/// Per-frame stage times of a run.
public struct FrameTiming: Sendable {
  /// Output frame index.
  public var frame: Int
  /// AR ticks since the previous output frame (camera, sessions, constraints), on the scene
  /// thread.
  public var sceneUpdate: Duration
  /// Render list snapshot and rasterization, on the scene thread (+ the render workers).
  public var render: Duration
  /// PNG encoding (image and depth), on an encoder thread; zero when frames are not written.
  public var encode: Duration
  /// Temporary files, events and trace lines, renames; zero when frames are not written.
  public var write: Duration
  /// Building the frame's trace and events lines, on the scene thread
  /// (`OutputFrame.traceLineTime`).
  public var traceLine: Duration = .zero
  /// Scene thread blocked in `FramePipeline.submit` because every encoder slot was taken.
  public var submitWait: Duration = .zero
  /// From the hand-over to the start of encoding (waiting for a Dispatch worker thread).
  public var encodeQueueWait: Duration = .zero
  /// From the end of staging (encoding and writing the temporary files) to the start of the
  /// commit (waiting for earlier frames).
  public var commitWait: Duration = .zero

  /// Creates a timing (a sink's own, e.g. a stream's conversion and send times); the pipeline's
  /// waits default to zero.
  public init(
    frame: Int, sceneUpdate: Duration, render: Duration, encode: Duration, write: Duration,
    traceLine: Duration = .zero, submitWait: Duration = .zero, encodeQueueWait: Duration = .zero,
    commitWait: Duration = .zero
  ) {
    self.frame = frame
    self.sceneUpdate = sceneUpdate
    self.render = render
    self.encode = encode
    self.write = write
    self.traceLine = traceLine
    self.submitWait = submitWait
    self.encodeQueueWait = encodeQueueWait
    self.commitWait = commitWait
  }
}
