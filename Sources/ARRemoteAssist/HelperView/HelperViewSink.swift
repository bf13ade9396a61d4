import ARFormats
import ARRenderCore
import ARSession
import ARSupport

/// `arsim render --helper-view`: writes the helper's screen next to the broadcaster's frames,
/// `DIR/helper/frame_NNNNN.png` for every frame the run writes (Documentation/StrokeLog.md,
/// "The helper's view").
///
/// Helper frame i (at the broadcaster frame's τ) shows the newest broadcaster frame of this
/// run rendered at or before τ − video latency (so the delay is rounded up to whole output
/// frames), fitted into the helper's view, with the touches drawn in the last second. Until a
/// delayed frame exists (the first video-latency seconds, or the start of a `--frames` range)
/// the screen is black with the touches.
///
/// Used on the scene thread only, in frame order (`FrameSink`).
public final class HelperViewSink: FrameSink, @unchecked Sendable {
  private let directory: String
  private let helper: HelperScreen
  private let trail: HelperTrail
  private let drawer: HelperScreenImage
  private let imageWriter: FrameImageWriter
  /// Rendered broadcaster frames not yet too old to be shown, oldest first.
  private var buffer: [(microseconds: Int64, image: Image)] = []

  /// Creates the sink for a run; `nil` when the scene has no remote-assist session.
  /// - Throws: `InputError` `.cannotCreate` when `DIR/helper` cannot be made.
  public init?(_ setup: FrameSinkSetup) throws {
    guard
      let configuration = setup.sessions.lazy.compactMap({
        $0 as? RemoteAssistKind.Configuration
      }).first
    else { return nil }
    helper = configuration.configuration.helper
    trail = HelperTrail(messages: configuration.messages, helper: helper)
    drawer = HelperScreenImage(helper: helper)
    imageWriter = setup.imageWriter
    directory = setup.outputDirectory + "/helper"
    try FileIO.createDirectory(directory)
  }

  /// Writes the helper's screen at `frame`'s τ.
  /// - Throws: `InputError` `.cannotCreate` when the PNG cannot be written.
  public func submit(_ frame: OutputFrame) throws {
    let now = ReplayTime.microseconds(frame.t)
    buffer.append((now, frame.rendered.image))
    let seen = now - ReplayTime.microseconds(helper.videoLatency)
    // Keep the newest frame at or before τ_seen and everything after it.
    if let index = buffer.lastIndex(where: { $0.microseconds <= seen }), index > 0 {
      buffer.removeFirst(index)
    }
    let shown = buffer.first.flatMap { $0.microseconds <= seen ? $0.image : nil }
    let video = frame.rendered.image
    let image = drawer.draw(
      video: shown, videoWidth: video.width, videoHeight: video.height,
      touches: trail.visible(at: frame.t))
    try imageWriter.write(image, to: directory + "/" + FrameFileName.name(frame.frame))
  }

  /// Nothing pending (frames are written in `submit`); no timings of its own.
  public func finish() throws -> [FrameTiming] { [] }
}
