import ARHeadsUpDisplay
import ARRender
import ARReplay
import ARText
import ARSupport
import ARVideoExport
import Foundation

extension RenderCommand {
  /// `--hud` (the heads-up display as the run's overlay) and `--video OUT.mp4` (an encoder
  /// sink after the PNG frames; with several views one per view, `OUT-<view>.mp4`). The font
  /// and ffmpeg are looked up here, before any frame is written, so a missing one fails the
  /// command at once (69).
  /// - Throws: `ToolUnavailable` naming the Debian package; `InputError` `.missingInput` for a
  ///   font that is not a regular file (a FIFO in `ARSIM_HUD_FONT`), `.badData` for one
  ///   FreeType cannot read; `UsageError` for a frame rate
  ///   ffmpeg cannot take or a video path that is a scene input, one of the run's files
  ///   (`refuseOverwritingRunFiles`), one of its folders or a lock file; `InputError`
  ///   `.cannotCreate` for a video path that is an existing folder or whose folder does not
  ///   exist and is not one the run makes (`refuseUnusableOutputFile`).
  static func addWatchOutputs(
    _ args: Arguments, scene: ReplayScene, multiView: Bool, output: CommandOutput,
    to options: inout ReplayOptions
  ) throws -> VideoOutputs? {
    let environment = ProcessInfo.processInfo.environment
    if args.has("--hud") {
      let path: String
      do {
        path = try FontLocator.fontPath(
          environment: environment, exists: { FileManager.default.fileExists(atPath: $0) })
      } catch {
        throw ToolUnavailable(message: "--hud: " + error.description)
      }
      // The input rule: FreeType would block on a FIFO named by ARSIM_HUD_FONT.
      do {
        try FileIO.checkRegularFile(path)
      } catch let failure as InputError {
        throw InputError(
          failure.kind, failure.location,
          failure.reason + " (the font for --hud, \(FontLocator.environmentVariable))")
      }
      do {
        options.overlay = HeadsUpDisplay(font: try FontFace(path: path))
      } catch .unreadableFont(_, let code) {
        // A file FreeType cannot read is bad input (65), not a missing tool.
        throw InputError(
          .badData, InputLocation(file: path),
          "FreeType cannot read this font (FreeType error \(code); the font for --hud, "
            + "\(FontLocator.environmentVariable))")
      } catch {
        throw ToolUnavailable(message: "--hud: " + error.description)
      }
    }
    let timeout = try args.number(
      "--video-timeout", expected: "seconds from 0.1 to 86400", where: { $0 >= 0.1 && $0 <= 86400 })
    guard let path = args.value("--video") else {
      if timeout != nil { throw UsageError("--video-timeout needs --video OUT.mp4") }
      return nil
    }
    // Before any frame: the video must replace neither an input nor a file of this run.
    let views = scene.viewNames
    var folders = [options.outputDirectory] + views.map { options.outputDirectory + "/" + $0 }
    if args.has("--helper-view") { folders += folders.map { $0 + "/helper" } }
    // Without --out the run makes the default folder's parents too (`Output/`, as `mkdir -p`),
    // so `--video Output/NAME.mp4` works in a fresh clone (the README's example); a folder the
    // user names is not made, so a mistyped path still does not become one.
    let made = folders + (args.value("--out") == nil ? parents(of: options.outputDirectory) : [])
    for video in multiView ? views.map({ VideoCommand.viewVideoPath(path, $0) }) : [path] {
      try refuseOverwritingRunFiles(
        video, label: "--video", inputs: scene.inputPaths, runFolders: folders)
      try refuseUnusableOutputFile(video, label: "--video", madeByRun: made)
    }
    guard let rate = VideoFrameRate(framesPerSecond: scene.schedule.fps) else {
      throw UsageError("--video: the scene's fps \(scene.schedule.fps) is outside 0.001…1000")
    }
    var chosen = VideoEncoderSettings(frameRate: rate)
    if let timeout {
      chosen.inputTimeoutSeconds = timeout
      chosen.finishTimeoutSeconds = 5 * timeout
    }
    let settings = chosen
    // A killed run's ffmpeg output (`OUT.mp4.arsim-tmp-PID`) is removed, as `render` removes
    // its folder's temporary files, and said.
    for video in multiView ? views.map({ VideoCommand.viewVideoPath(path, $0) }) : [path] {
      for stale in VideoEncoder.removeStaleTemporaryFiles(of: video) {
        output.printError("arsim render: removed \(stale), left by an interrupted run")
      }
    }
    // Finds ffmpeg (and checks the output) now; the sinks make their own encoders per view.
    do {
      _ = try VideoEncoder(outputPath: path, settings: settings, environment: environment)
    } catch {
      if case .ffmpegNotFound = error {
        throw ToolUnavailable(message: "--video: " + error.description)
      }
      if case .cannotCreate(_, let reason) = error {
        throw InputError(
          .cannotCreate, InputLocation(file: path), "cannot create the video: " + reason)
      }
      throw InputError(.cannotCreate, InputLocation(file: path), error.description)
    }
    let videos = VideoOutputs()
    let earlier = options.frameSinks
    options.frameSinks = { @Sendable setup in
      let view = FileIO.lastComponent(setup.outputDirectory)
      let output = multiView ? VideoCommand.viewVideoPath(path, view) : path
      let encoder = try VideoEncoder(
        outputPath: output, settings: settings, environment: environment)
      let sink = VideoFrameSink(encoder: encoder)
      videos.add(path: output, sink: sink)
      return (try earlier?(setup) ?? []) + [sink]
    }
    return videos
  }

  /// The folders above `path` as spelt (`Output` for `Output/tum-measure`; none for `out`).
  static func parents(of path: String) -> [String] {
    var folders: [String] = []
    var rest = FileIO.withoutTrailingSlashes(path)
    while let slash = rest.lastIndex(of: "/"), slash != rest.startIndex {
      rest = String(rest[..<slash])
      folders.append(rest)
    }
    return folders
  }

  /// After the run: each video's outcome (a failure leaves the PNG frames complete: 73 with
  /// ffmpeg's last lines), then `--report`.
  static func finishWatchOutputs(
    _ args: Arguments, video: VideoOutputs?, directory: String, output: CommandOutput
  ) throws -> ExitCode {
    var code = ExitCode.ok
    for (path, sink) in video?.all ?? [] {
      if let failure = sink.failure {
        output.printError(
          "arsim render: error: \(failure.description)\n"
            + "arsim render: the PNG frames in \(InputText.escaped(directory)) are complete; `arsim video` can retry"
        )
        code = .cannotCreate
      } else {
        output.printError(
          "arsim render: video → \(InputText.escaped(path)) (H.264 yuv420p, BT.709 limited range)")
      }
    }
    if args.has("--report") {
      let report = try ReportCommand.write(directory, output: output)
      if code == .ok { code = report }
    }
    return code
  }
}

/// The videos of one `render --video` run, one per view, as the frame loop makes their sinks.
final class VideoOutputs: @unchecked Sendable {
  private let lock = NSLock()
  private var videos: [(String, VideoFrameSink)] = []

  func add(path: String, sink: VideoFrameSink) {
    lock.lock()
    videos.append((path, sink))
    lock.unlock()
  }

  var all: [(String, VideoFrameSink)] {
    lock.lock()
    defer { lock.unlock() }
    return videos
  }
}

/// A tool or file ARSim needs is not installed (exit 69, EX_UNAVAILABLE).
struct ToolUnavailable: Error {
  var message: String
}
