import ARRender
import ARReport
import ARSupport
import ARVideoExport
import Foundation

/// `arsim video DIR OUT.mp4 [--fps F] [--crf N] [--preset P]`: the frames of an output
/// folder as an H.264 MP4 (Documentation/Watching.md, "Video"). A folder of participant views
/// (sub-folders with frames) gives one video per view, `OUT-<view>.mp4`.
enum VideoCommand {
  static func run(_ arguments: [String], output: CommandOutput) throws -> ExitCode {
    let args = try Arguments(arguments, valueOptions: ["--fps", "--crf", "--preset"])
    guard args.positionals.count == 2 else {
      throw UsageError("video takes DIR and OUT.mp4, got \(args.positionals.count) arguments")
    }
    let fps = try args.number("--fps", expected: "a rate from 0.001 to 1000") {
      $0 >= 0.001 && $0 <= 1000
    }
    let settings = try Self.settings(args)
    let folder = try RunFolder.load(args.positionals[0])
    let outputPath = args.positionals[1]
    var jobs: [(RunFolder, String)] = []
    if !folder.frames.isEmpty { jobs.append((folder, outputPath)) }
    for view in folder.views {
      jobs.append((try RunFolder.loadView(view, of: folder), viewVideoPath(outputPath, view)))
    }
    guard !jobs.isEmpty else {
      throw InputError(.missingInput, InputLocation(file: folder.path), "no frame_NNNNN.png files")
    }
    let folders = [folder.path] + folder.views.map { folder.path + "/" + $0 }
    for (_, path) in jobs {
      try refuseOverwritingRunFiles(path, label: "OUT", inputs: [], runFolders: folders)
      try refuseUnusableOutputFile(path, label: "OUT")
    }
    // A killed or interrupted run's ffmpeg output (`OUT.mp4.arsim-tmp-PID`), as `render --video`.
    for (_, path) in jobs {
      for stale in VideoEncoder.removeStaleTemporaryFiles(of: path) {
        output.printError("arsim video: removed \(stale), left by an interrupted run")
      }
    }
    for (source, path) in jobs {
      let rate = fps ?? source.framesPerSecond ?? folder.framesPerSecond
      guard let rate else {
        throw UsageError("\(source.path) has no run.json with an fps; give --fps")
      }
      guard let frameRate = VideoFrameRate(framesPerSecond: rate) else {
        // Only run.json's value can be out of range here (--fps is checked above).
        throw UsageError(
          "\(source.path)/run.json: fps \(rate) is outside 0.001…1000, which a video can "
            + "play; give --fps")
      }
      var chosen = settings
      chosen.frameRate = frameRate
      let code = encode(source, to: path, settings: chosen, output: output)
      guard code == .ok else { return code }
    }
    return .ok
  }

  /// `OUT-<view>.mp4` beside `OUT.mp4`, the extension in any case kept as written
  /// (`OUT-<view>.MP4` beside `OUT.MP4`); `OUT` keeps any other extension:
  /// `OUT.mov-<view>.mp4`.
  static func viewVideoPath(_ output: String, _ view: String) -> String {
    let suffix = String(output.suffix(4))
    guard suffix.lowercased() == ".mp4" else { return output + "-" + view + ".mp4" }
    return String(output.dropLast(4)) + "-" + view + suffix
  }

  static func settings(_ args: Arguments) throws -> VideoEncoderSettings {
    var settings = VideoEncoderSettings(frameRate: VideoFrameRate(numerator: 30, denominator: 1))
    if let crf = try args.integer("--crf", in: 0...51) { settings.constantRateFactor = crf }
    if let preset = args.value("--preset") {
      let presets = [
        "ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower",
        "veryslow",
      ]
      guard presets.contains(preset) else {
        throw UsageError(
          "--preset \(InputText.quoted(preset)): expected one of \(presets.joined(separator: ", "))"
        )
      }
      settings.preset = preset
    }
    return settings
  }

  /// Encodes the frames of `folder`'s last run (`RunFolder.frames`) in frame order; prints one
  /// line, or the error.
  static func encode(
    _ folder: RunFolder, to path: String, settings: VideoEncoderSettings, output: CommandOutput
  ) -> ExitCode {
    let frames = folder.frames
    if folder.earlierRunFrameCount > 0 {
      output.printError(
        "arsim video: note: \(InputText.escaped(folder.path)) holds \(folder.earlierRunFrameCount) frame files of "
          + "earlier runs; the video shows the \(frames.count) frames of the last run (run.json)")
    }
    if let first = frames.first, let last = frames.last, last - first + 1 != frames.count {
      output.printError(
        "arsim video: note: \(InputText.escaped(folder.path)) lacks \(last - first + 1 - frames.count) of frames "
          + "\(first)…\(last); the video shows the files there are, one after another")
    }
    do {
      let encoder = try VideoEncoder(
        outputPath: path, settings: settings, environment: ProcessInfo.processInfo.environment)
      // Ctrl-C: kill ffmpeg and remove its temporary file (it would go on encoding into it).
      let interrupt = InterruptCleanup { encoder.abandon() }
      defer { interrupt.finish() }
      // Any error below (a frame that is not a PNG, a FIFO, another size) stops ffmpeg and
      // removes its temporary file: only a SIGKILL leaves one (Watching.md).
      var published = false
      defer { if !published { encoder.cancel() } }
      for frame in frames {
        let file = folder.path + "/" + RunFolder.frameName(frame)
        let image = try Image(contentsOfPNG: file)
        do throws(VideoEncoderError) {
          try encoder.append(image)
        } catch .frameSizeChanged(_, _, let expected, let actual) {
          // The encoder counts the frames it was given; the user needs the file.
          throw InputError(
            .badData, InputLocation(file: file),
            "is \(actual), the video's first frame (\(RunFolder.frameName(frames[0]))) is \(expected)"
          )
        }
      }
      try encoder.finish()
      published = true
    } catch let error as VideoEncoderError {
      output.printError("arsim video: error: \(error.description)")
      if case .ffmpegNotFound = error { return .unavailable }
      // Frames of different sizes are the input's fault, not the output's.
      if case .frameSizeChanged = error { return .badData }
      return .cannotCreate
    } catch let error as any LocatedError {
      output.printError("arsim video: error: \(error.description)")
      return ExitCode(error.kind)
    } catch {
      output.printError("arsim video: error: \(error)")
      return .internalError
    }
    output.printError(
      "arsim video: \(frames.count) frames → \(InputText.escaped(path)) (H.264 yuv420p, "
        + "\(settings.frameRate) frames/s, BT.709 limited range)")
    return .ok
  }
}
