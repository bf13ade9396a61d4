import ARLive
import ARReplay
import ARSession
import ARSupport
import Foundation

/// `arsim stream SCENE --port P --tx-token T --rx-token R …` (the broadcast sender) and
/// `arsim render SCENE --strokes-port Q …` (files, with live strokes): Documentation/Live.md.
enum StreamCommand {
  static let valueOptions: Set<String> = LiveOptions.valueOptions.union([
    "--out", "--frames", "--threads", "--strokes-port", "--send-timeout", "--pixel-format",
    "--tx-token", "--rx-token",
  ])

  /// `arsim stream`.
  static func run(_ arguments: [String], output: CommandOutput, registry: SessionRegistry) throws
    -> ExitCode
  {
    // `--hud`, `--video`, …: render's options, not misspellings of stream's (it suggested
    // `--out` for `--hud`).
    let streamOptions = valueOptions.union(["--as-fast-as-possible", "--wait-for-lock"])
    for name in optionNames(in: arguments) {
      guard
        streamOptions.contains(name)
          || !RenderCommand.valueOptions.union(RenderCommand.flagOptions).contains(name)
      else {
        throw UsageError(
          "\(name) is an option of arsim render, not of arsim stream (stream's options: "
            + "arsim stream --help)")
      }
    }
    let args = try Arguments(
      arguments, valueOptions: valueOptions,
      flagOptions: ["--as-fast-as-possible", "--wait-for-lock"])
    guard args.positionals.count == 1 else {
      throw UsageError("stream takes one SCENE.json, got \(args.positionals.count)")
    }
    guard let endpoint = try LiveOptions.endpoint(args, allowsZero: false) else {
      throw UsageError("--port P is required")
    }
    let sender = BroadcastSender(
      endpoint: endpoint, transmissionToken: try LiveOptions.token(args, "--tx-token"),
      receptionToken: try LiveOptions.token(args, "--rx-token"),
      connectTimeout: try LiveOptions.timeout(args, "--connect-timeout", default: 5),
      handshakeTimeout: try LiveOptions.timeout(args, "--handshake-timeout", default: 5))
    var options = try liveOptions(
      args, defaultFolderSuffix: "-stream", registry: registry, refusal: "arsim stream")
    if let strokes = options.1.strokesEndpoint, strokes.port == endpoint.port {
      // Both on --host: the stream would connect to its own strokes listener and wait there.
      throw UsageError(
        "--strokes-port \(strokes.port) is the receiver's --port: the strokes port is this "
          + "stream's own listener, give it another")
    }
    try checkWireSize(options.0)
    options.1.sendTimeout = try LiveOptions.timeout(args, "--send-timeout", default: 5)
    if let format = args.value("--pixel-format") {
      guard let f = PixelFormat(rawValue: format.uppercased()) else {
        throw UsageError("--pixel-format \(InputText.quoted(format)): expected i420 or bgra")
      }
      options.1.pixelFormat = f
    }
    return try execute(
      "stream", scene: options.0, options: options.1, sender: sender, output: output)
  }

  /// The `--name`s among `arguments` (before a `--`), without their `=value`.
  static func optionNames(in arguments: [String]) -> [String] {
    arguments.prefix(while: { $0 != "--" }).filter { $0.hasPrefix("--") }.map {
      String($0.prefix { $0 != "=" })
    }
  }

  /// Refuses, before any socket, a scene whose frames the wire format cannot carry (at most
  /// `FrameHeader.maximumDimension` pixels a side; scene files allow more).
  /// - Throws: `InputError` (`.badData`) naming the scene file, the line and `output.width`
  ///   or `output.height`.
  static func checkWireSize(_ scene: ReplayScene) throws {
    let (width, height) = (scene.outputIntrinsics.width, scene.outputIntrinsics.height)
    let limit = FrameHeader.maximumDimension
    guard width > limit || height > limit else { return }
    let field = width > limit ? "output.width" : "output.height"
    throw InputError(
      .badData, ReplayScene.fieldLocation(field, inSceneFile: scene.sceneFilePath),
      "\(width)×\(height) is over the stream's \(limit) pixels a side (the wire format, "
        + "Documentation/Live.md): render it to files, or stream a smaller output")
  }

  /// A live render's (`render --strokes-port`) options that take a value, and its flags.
  static let liveRenderValueOptions: Set<String> = [
    "--out", "--frames", "--threads", "--strokes-port", "--host",
  ]
  static let liveRenderFlagOptions: Set<String> = ["--as-fast-as-possible", "--wait-for-lock"]

  /// Options of `arsim render` that a live render does not take.
  static var fileRenderOnlyOptions: Set<String> {
    RenderCommand.valueOptions.union(RenderCommand.flagOptions)
      .subtracting(liveRenderValueOptions).subtracting(liveRenderFlagOptions)
  }

  /// `arsim render --strokes-port Q`.
  /// - Throws: `UsageError` naming an option of the file render that the live one lacks
  ///   (`fileRenderOnlyOptions`), before "unknown option" could suggest it is misspelt.
  static func runRender(_ arguments: [String], output: CommandOutput, registry: SessionRegistry)
    throws -> ExitCode
  {
    let refused = fileRenderOnlyOptions
    for name in optionNames(in: arguments) {
      guard !refused.contains(name) else {
        throw UsageError(
          "\(name) does not combine with --strokes-port: a live render takes --out, --frames, "
            + "--threads, --host, --as-fast-as-possible and --wait-for-lock (Documentation/Live.md)"
        )
      }
    }
    let args = try Arguments(
      arguments, valueOptions: liveRenderValueOptions, flagOptions: liveRenderFlagOptions)
    guard args.positionals.count == 1 else {
      throw UsageError("render takes one SCENE.json, got \(args.positionals.count)")
    }
    let (scene, options) = try liveOptions(
      args, defaultFolderSuffix: "", registry: registry, refusal: "--strokes-port")
    return try execute("render", scene: scene, options: options, sender: nil, output: output)
  }

  /// - Parameter refusal: what the message names when the scene has several views.
  private static func liveOptions(
    _ args: Arguments, defaultFolderSuffix: String, registry: SessionRegistry, refusal: String
  ) throws -> (ReplayScene, LiveRun.Options) {
    let threads = try args.integer("--threads", in: 0...1024) ?? 0
    let range = try args.value("--frames").map(RenderCommand.parseRange)
    let strokes = try LiveOptions.endpoint(
      args, portOption: "--strokes-port", allowsZero: true, required: false)
    let scene = try ReplayScene.load(path: args.positionals[0], registry: registry)
    // The live run renders the scene's one camera; a collaborative scene's participants each
    // need a frame loop of their own (MultiViewReplay), so it would show none of them.
    guard scene.multiView == nil else {
      throw UsageError(
        "\(refusal) needs a scene with one view; \(args.positionals[0]) has "
          + "\(scene.viewNames.count) (\(scene.viewNames.joined(separator: ", "))): render it "
          + "with arsim render (--participant ID for one view)")
    }
    // Checked before any socket: a stream would otherwise connect and then stop.
    _ = try scene.frames(range)
    var options = LiveRun.Options(
      outputDirectory: args.value("--out") ?? "Output/\(scene.name)\(defaultFolderSuffix)")
    options.frameRange = range
    options.threads = threads
    options.isPaced = !args.has("--as-fast-as-possible")
    options.strokesEndpoint = strokes
    options.liveMessageDefault = registry.liveMessageDefault
    options.waitsForLock = args.has("--wait-for-lock")
    // The fields every render's run.json has (Scaling.md): a live run is not a shard and
    // draws no overlay.
    options.runFields =
      try RenderCommand.shardPlan(
        nil, frames: range, scene: scene, environment: ProcessInfo.processInfo.environment
      ).runFields + [
        ("overlays", .object([("hud", .bool(false)), ("featurePoints", .bool(false))]))
      ]
    return (scene, options)
  }

  private static func execute(
    _ command: String, scene: ReplayScene, options: LiveRun.Options, sender: BroadcastSender?,
    output: CommandOutput
  ) throws -> ExitCode {
    for warning in scene.warnings { output.printError("arsim \(command): warning: \(warning)") }
    if let warning = outputAmongInputsWarning(
      directory: options.outputDirectory, inputs: scene.inputPaths)
    {
      output.printError("arsim \(command): warning: \(warning)")
    }
    var options = options
    options.lockWaitNotice = { output.printError("arsim \(command): \($0)") }
    StopSignal.installInterruptHandlers()
    let summary: LiveRun.Summary
    do {
      summary = try LiveRun(scene: scene, options: options).run(sender: sender) { strokes in
        if let strokes {
          output.printError("arsim \(command): strokes port listening on \(strokes)")
        }
        if let sender { output.printError("arsim \(command): connecting to \(sender.endpoint)") }
      }
    } catch let error as LiveError {
      output.printError("arsim \(command): failed: \(error.description)")
      return ExitCode(error)
    }
    var line = "arsim \(command): \(summary.framesOut) frames "
    if sender != nil {
      line += "sent, \(summary.dropped.count) dropped"
      if !summary.unsent.isEmpty {
        line += ", \(summary.unsent.count) unsent when the stream broke"
      }
      if let median = median(summary.tickToWire) {
        line +=
          " (tick to wire: median \(formatted(median, 2)) ms, p99 "
          + "\(formatted(percentile(summary.tickToWire, 0.99) ?? 0, 2)) ms)"
      }
    } else {
      line += "written"
    }
    line += " → \(InputText.escaped(options.outputDirectory))"
    output.printError(line)
    if let path = summary.strokeLogPath {
      var strokes =
        "arsim \(command): \(summary.strokesReceived) stroke messages received → \(InputText.escaped(path))"
      if let median = median(summary.strokeLatency) {
        strokes +=
          "; arrival to first sphere out: median \(formatted(median, 1)) ms, p99 "
          + "\(formatted(percentile(summary.strokeLatency, 0.99) ?? 0, 1)) ms over "
          + "\(summary.strokeLatency.count) messages"
      }
      // Read from the port but in no frame: said, not only counted in run.json.
      if summary.strokesOverflowed > 0 {
        strokes +=
          "; \(summary.strokesOverflowed) dropped (\(LiveStrokeInbox.capacity) already waited)"
      }
      if summary.strokesUndelivered > 0 {
        strokes +=
          "; \(summary.strokesUndelivered) arrived after the last frame and were not delivered"
      }
      output.printError(strokes)
    }
    guard let failure = summary.failure else { return .ok }
    if let live = failure as? LiveError {
      output.printError(liveStopLine(command, live))
      return ExitCode(live)
    }
    throw failure
  }

  static func median(_ values: [Double]) -> Double? { percentile(values, 0.5) }

  /// Nearest-rank percentile.
  static func percentile(_ values: [Double], _ q: Double) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    return sorted[max(0, min(sorted.count - 1, Int((q * Double(sorted.count)).rounded(.up)) - 1))]
  }
}
