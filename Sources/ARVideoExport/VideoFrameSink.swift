import ARRender
import ARSession

/// A frame sink (`ReplayOptions.frameSinks`) that encodes the run's frames into an MP4 as they
/// are rendered (`arsim render --video`): after the PNG sink, in frame order, the same
/// (overlaid) images.
///
/// A video failure never stops the run or touches the PNG frames: the sink keeps the first
/// error (`failure`), stops feeding ffmpeg and lets the run finish; the command reports it.
public final class VideoFrameSink: FrameSink, @unchecked Sendable {
  private let encoder: VideoEncoder
  /// The first encoding error, if any (read after the run).
  public private(set) var failure: VideoEncoderError?

  /// A sink writing to `encoder` (made by the caller, so a missing ffmpeg fails before the run).
  public init(encoder: VideoEncoder) { self.encoder = encoder }

  /// Encodes the frame's image (alpha ignored); after a failure, does nothing.
  public func submit(_ frame: OutputFrame) throws {
    guard failure == nil else { return }
    do {
      try encoder.append(frame.rendered.image)
    } catch {
      failure = error
      encoder.cancel()
    }
  }

  /// Kills the encoder's ffmpeg and removes its temporary file (`VideoEncoder.abandon()`), for
  /// a cleanup as the process ends on a signal.
  public func abandon() { encoder.abandon() }

  /// Finishes the video (waits for ffmpeg); a failure is kept in `failure`, not thrown, so
  /// the run still writes run.json. Returns no timings (the PNG sink's are the run's).
  public func finish() throws -> [FrameTiming] {
    guard failure == nil else { return [] }
    do {
      try encoder.finish()
    } catch {
      failure = error
    }
    return []
  }
}
