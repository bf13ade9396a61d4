import ARFormats
import ARRemoteAssist
import ARRender
import ARReplay
import ARReport
import ARSession
import ARSupport
import ARVideoExport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `arsim render SCENE.json [--out DIR] [--frames A..B] [--shard I/N|auto[/N]] [--threads N]
/// [--helper-view] [--participant ID] [--hud] [--video OUT.mp4] [--video-timeout S] [--report]
/// [--wait-for-lock] [--debug feature-points]`.
enum RenderCommand {
  /// The options of a file render that take a value, and the flags.
  static let valueOptions: Set<String> = [
    "--out", "--frames", "--shard", "--threads", "--participant", "--video", "--video-timeout",
    "--debug",
  ]
  static let flagOptions: Set<String> = ["--helper-view", "--report", "--hud", "--wait-for-lock"]

  static func run(
    _ arguments: [String], output: CommandOutput, registry: SessionRegistry,
    frameSinks userSinks: (@Sendable (FrameSinkSetup) throws -> [any FrameSink])? = nil
  ) throws -> ExitCode {
    if arguments.contains(where: { $0 == "--strokes-port" || $0.hasPrefix("--strokes-port=") }) {
      return try StreamCommand.runRender(arguments, output: output, registry: registry)
    }
    let args = try Arguments(arguments, valueOptions: valueOptions, flagOptions: flagOptions)
    guard args.positionals.count == 1 else {
      throw UsageError("render takes one SCENE.json, got \(args.positionals.count)")
    }
    let threads = try args.integer("--threads", in: 0...1024) ?? 0
    let range = try args.value("--frames").map(parseRange)
    let scene = try ReplayScene.load(path: args.positionals[0], registry: registry)
    for warning in scene.warnings { output.printError("arsim render: warning: \(warning)") }
    let plan = try shardPlan(
      args.value("--shard"), frames: range, scene: scene,
      environment: ProcessInfo.processInfo.environment)
    let directory = args.value("--out") ?? plan.defaultDirectory
    if let warning = outputAmongInputsWarning(directory: directory, inputs: scene.inputPaths) {
      output.printError("arsim render: warning: \(warning)")
    }
    let progress = output.isTerminal ? ProgressLine(output: output) : nil
    var options = ReplayOptions(
      outputDirectory: directory, frameRange: plan.frames, threads: threads)
    options.runFields = plan.runFields
    options.waitsForLock = args.has("--wait-for-lock")
    options.lockWaitNotice = { output.printError("arsim render: \($0)") }
    if let debug = args.value("--debug") {
      guard debug == "feature-points" else {
        throw UsageError("--debug takes feature-points, got \(InputText.quoted(debug))")
      }
      guard scene.featurePoints != nil else {
        throw UsageError("--debug feature-points needs a scene with an environment section")
      }
      options.drawsFeaturePoints = true
    }
    // What is drawn over the scene's pixels: shards that differ in it cannot be merged.
    options.runFields.append(
      (
        "overlays",
        .object([
          ("hud", .bool(args.has("--hud"))), ("featurePoints", .bool(options.drawsFeaturePoints)),
        ])
      ))
    if args.has("--helper-view") {
      guard scene.sessions.contains(where: { $0.key == "remoteAssist" }) else {
        throw UsageError("--helper-view needs a scene with a remoteAssist section")
      }
      // A shard would start without the frames its first helper frames show, and `arsim merge`
      // does not join helper/ folders.
      guard args.value("--shard") == nil else {
        throw UsageError("--helper-view cannot be combined with --shard")
      }
      options.frameSinks = { setup in try HelperViewSink(setup).map { [$0] } ?? [] }
    }
    if let userSinks {
      let earlier = options.frameSinks
      options.frameSinks = { @Sendable setup in try (earlier?(setup) ?? []) + userSinks(setup) }
    }
    if let progress {
      progress.endLineOnInterrupt()
      options.progress = { @Sendable p in progress.show(p) }
    }
    let video = try addWatchOutputs(
      args, scene: scene, multiView: scene.multiView != nil, output: output, to: &options)
    // Ctrl-C during --video: ffmpeg would go on encoding into its temporary file after ARSim
    // ends; kill it and remove the file (this replaces the progress line's handler, so it ends
    // the line too).
    let interrupt = video.map { videos in
      InterruptCleanup { [endsLine = progress != nil] in
        if endsLine {
          var newline = UInt8(ascii: "\n")
          _ = write(STDERR_FILENO, &newline, 1)
        }
        for (_, sink) in videos.all { sink.abandon() }
      }
    }
    defer { interrupt?.finish() }
    let participant = args.value("--participant")
    if scene.multiView != nil {
      let summary = try MultiViewReplay(scene: scene).run(
        options, only: participant.map { [$0] })
      progress?.finish()
      let frames = summary.views.map(\.summary.framesWritten.count).reduce(0, +)
      output.printError(
        "arsim render: \(summary.views.count) " + (summary.views.count == 1 ? "view" : "views")
          + ", \(frames) " + (frames == 1 ? "frame" : "frames")
          + " → \(InputText.escaped(directory)) "
          + "(\(formatted(summary.totalSeconds, 1)) s)"
          + warningsNote(
            count: summary.warningCount, events: summary.warningEventCount,
            first: summary.firstWarning))
      return try finishWatchOutputs(args, video: video, directory: directory, output: output)
    }
    if participant != nil {
      throw UsageError("--participant needs a scene with participants (a collaboration section)")
    }
    let summary = try Replay(scene: scene).run(options)
    progress?.finish()
    let others = otherFrames(in: directory, written: Set(summary.framesWritten))
    if others > 0 {
      output.printError(
        "arsim render: note: \(InputText.escaped(directory)) also holds \(counted(others, "frame file")) from earlier runs "
          + "(run.json lists the frames this run wrote)")
    }
    let fps = Double(summary.framesWritten.count) / max(summary.totalSeconds, 1e-9)
    output.printError(
      "arsim render: \(summary.framesWritten.count) "
        + (summary.framesWritten.count == 1 ? "frame" : "frames")
        + (plan.shard.map { " (shard \($0))" } ?? "") + " → \(InputText.escaped(directory)) "
        + "(\(formatted(summary.totalSeconds, 1)) s, \(formatted(fps, 1)) frames/s)"
        + warningsNote(summary))
    return try finishWatchOutputs(args, video: video, directory: directory, output: output)
  }

  /// `; 3 warnings, the first: …` for the summary line ("" without warnings), so warnings
  /// raised during the replay are seen without opening events.jsonl.
  static func warningsNote(_ summary: ReplaySummary) -> String {
    warningsNote(
      count: summary.warningCount, events: summary.warningEventCount, first: summary.firstWarning)
  }

  /// The note for `count` warnings, `events` of them in events.jsonl files, `first` quoted.
  static func warningsNote(count: Int, events: Int, first: String?) -> String {
    guard count > 0, let first else { return "" }
    let shown = first.count > 160 ? String(first.prefix(160)) + "…" : first
    return "; \(count) " + (count == 1 ? "warning" : "warnings")
      + " (\(events) in events.jsonl), the first: \(shown)"
  }

  /// The number of `frame_NNNNN.png` files in `directory` that this run did not write.
  static func otherFrames(in directory: String, written: Set<Int>) -> Int {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
      return 0
    }
    return names.filter { name in
      guard let (n, kind) = FrameFileName.parse(name), kind == .frame else { return false }
      return !written.contains(n)
    }.count
  }

  /// Parses `A..B` (inclusive) or a single frame `A`.
  static func parseRange(_ text: String) throws -> ClosedRange<Int> {
    if let a = Int(text), a >= 0 { return a...a }
    // Exactly two numbers around one "..": "0...3" or "0..3..5" are refused.
    let parts = text.components(separatedBy: "..")
    guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, b >= a
    else {
      throw UsageError(
        "--frames \(InputText.quoted(text)): expected A..B with 0 ≤ A ≤ B (inclusive)")
    }
    return a...b
  }
}

/// A one-line progress display on a terminal: frames done, frames/s, ETA.
final class ProgressLine: @unchecked Sendable {
  private let output: CommandOutput
  private var lastShown = -1.0

  init(output: CommandOutput) { self.output = output }

  /// Ends the line on Ctrl-C too, so the shell prompt starts on a line of its own: the handler
  /// writes a newline (`write` is async-signal-safe), restores the default action and raises
  /// the signal again, so the exit status still says "interrupted". Committed frames stay;
  /// temporary files are removed by the next run into the folder.
  func endLineOnInterrupt() {
    signal(SIGINT) { signalNumber in
      var newline = UInt8(ascii: "\n")
      _ = write(STDERR_FILENO, &newline, 1)
      signal(signalNumber, SIG_DFL)
      raise(signalNumber)
    }
  }

  func show(_ p: ReplayProgress) {
    guard p.elapsedSeconds - lastShown >= 0.2 || p.framesDone == p.framesTotal else { return }
    lastShown = p.elapsedSeconds
    let fps = Double(p.framesDone) / max(p.elapsedSeconds, 1e-9)
    let eta = Double(p.framesTotal - p.framesDone) / max(fps, 1e-9)
    output.standardError(
      "\rframe \(p.framesDone)/\(p.framesTotal)  \(formatted(fps, 1)) fps  ETA \(formatted(eta, 0)) s   "
    )
  }

  func finish() { output.standardError("\n") }
}

/// `x` with `digits` decimals, without Foundation's locale.
func formatted(_ x: Double, _ digits: Int) -> String {
  guard x.isFinite else { return "-" }
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let r = (x * scale).rounded() / scale
  var s = "\(r)"
  if digits == 0, s.hasSuffix(".0") { s.removeLast(2) }
  return s
}
