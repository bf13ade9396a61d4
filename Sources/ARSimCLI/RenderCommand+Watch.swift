import ARHeadsUpDisplay
import ARRender
import ARReplay
import ARText
import ARVideoExport
import Foundation

extension RenderCommand {
  /// `--hud` (the heads-up display as the run's overlay) and `--video OUT.mp4` (an encoder
  /// sink after the PNG frames). The font and ffmpeg are looked up here, before any frame is
  /// written, so a missing one fails the command at once (69).
  /// - Throws: `ToolUnavailable` naming the Debian package; `UsageError` for a frame rate
  ///   ffmpeg cannot take.
  static func addWatchOutputs(
    _ args: Arguments, scene: ReplayScene, to options: inout ReplayOptions
  )
    throws -> (sink: VideoFrameSink, path: String)?
  {
    let environment = ProcessInfo.processInfo.environment
    if args.has("--hud") {
      do {
        let path = try FontLocator.fontPath(
          environment: environment, exists: { FileManager.default.fileExists(atPath: $0) })
        options.overlay = HeadsUpDisplay(font: try FontFace(path: path))
      } catch {
        throw ToolUnavailable(message: "--hud: " + error.description)
      }
    }
    guard let path = args.value("--video") else { return nil }
    guard let rate = VideoFrameRate(framesPerSecond: scene.schedule.fps) else {
      throw UsageError("--video: the scene's fps \(scene.schedule.fps) is outside 0.001…1000")
    }
    let encoder: VideoEncoder
    do {
      encoder = try VideoEncoder(
        outputPath: path, settings: VideoEncoderSettings(frameRate: rate), environment: environment)
    } catch {
      if case .ffmpegNotFound = error {
        throw ToolUnavailable(message: "--video: " + error.description)
      }
      throw InputError(.cannotCreate, InputLocation(file: path), error.description)
    }
    let sink = VideoFrameSink(encoder: encoder)
    let earlier = options.frameSinks
    options.frameSinks = { @Sendable setup in (try earlier?(setup) ?? []) + [sink] }
    return (sink, path)
  }

  /// After the run: the video's outcome (its failure leaves the PNG frames complete: 73 with
  /// ffmpeg's last lines), then `--report`.
  static func finishWatchOutputs(
    _ args: Arguments, video: (sink: VideoFrameSink, path: String)?, directory: String,
    output: CommandOutput
  ) throws -> ExitCode {
    if let video {
      if let failure = video.sink.failure {
        output.printError(
          "arsim render: error: \(failure.description)\n"
            + "arsim render: the PNG frames in \(directory) are complete; `arsim video` can retry")
        return .cannotCreate
      }
      output.printError("arsim render: video → \(video.path) (H.264 yuv420p, BT.709 limited range)")
    }
    if args.has("--report") { return try ReportCommand.write(directory, output: output) }
    return .ok
  }
}

/// A tool or file ARSim needs is not installed (exit 69, EX_UNAVAILABLE).
struct ToolUnavailable: Error {
  var message: String
}
