import ARFormats
import ARMath
import ARRemoteAssist
import ARRender
import ARReplay
import ARSession
import ARSupport

/// `arsim strokes from-quickdraw FILE.ndjson --drawing N [--view WxH] [--scale S] [--start T]
/// [--speed F] [--out LOG.jsonl]`: the messages a helper drawing a Quick, Draw! drawing sends, as a stroke
/// log (JSON Lines) on standard output or into `--out` (written atomically).
enum StrokesCommand {
  /// The largest `--view` side, in points (real devices are under 1500).
  static let maximumViewPoints = 100_000.0

  static func run(_ arguments: [String], output: CommandOutput) throws -> ExitCode {
    if arguments.first == "send" {
      return try StrokesSendCommand.run(Array(arguments.dropFirst()), output: output)
    }
    guard arguments.first == "from-quickdraw" else {
      throw UsageError(
        "expected 'from-quickdraw' or 'send'"
          + (arguments.first.map { ", got \(InputText.quoted($0))" } ?? "")
          + didYouMean(arguments.first ?? "", among: ["from-quickdraw", "send"])
          + " (see arsim help strokes)")
    }
    let args = try Arguments(
      Array(arguments.dropFirst()),
      valueOptions: ["--drawing", "--view", "--scale", "--start", "--speed", "--out"])
    guard args.positionals.count == 1 else {
      throw UsageError("from-quickdraw takes one FILE.ndjson, got \(args.positionals.count)")
    }
    guard let index = try args.integer("--drawing", in: 0...10_000_000) else {
      throw UsageError("--drawing N is required (0-based index of the drawing in the file)")
    }
    var simulation = HelperSimulation()
    if let view = args.value("--view") {
      let parts = view.lowercased().split(separator: "x")
      guard parts.count == 2, let w = InputText.double(parts[0]),
        let h = InputText.double(parts[1]),
        (1...maximumViewPoints).contains(w), (1...maximumViewPoints).contains(h)
      else {
        throw UsageError(
          "--view \(InputText.quoted(view)): expected WIDTHxHEIGHT in points, each 1 to 100000, e.g. 390x844"
        )
      }
      simulation.viewSize = Vector2(w, h)
    }
    if let scale = try args.number(
      "--scale", expected: "points per canvas pixel, more than 0 and at most 1000",
      where: { $0 > 0 && $0 <= 1000 })
    {
      simulation.pointsPerCanvasPixel = scale
    }
    if let start = try args.number(
      "--start", expected: "seconds from 0 to 1000000 (the stroke-log limit)",
      where: { (0...StrokeLog.maximumSeconds).contains($0) })
    {
      simulation.start = start
    }
    if let speed = try args.number(
      "--speed", expected: "a factor from 0.001 to 1000", where: { (0.001...1000).contains($0) })
    {
      simulation.speed = speed
    }
    if let out = args.value("--out") {
      try refuseOverwritingInputs(out, label: "--out", inputs: [args.positionals[0]])
      try refuseUnusableOutputFile(out, label: "--out")
    }
    let drawing = try QuickDrawDrawing.read(path: args.positionals[0], index: index)
    let log = StrokeLog(messages: simulation.messages(for: drawing))
    if let last = log.messages.last, last.t > StrokeLog.maximumSeconds {
      throw UsageError(
        "the drawing's last message would arrive at t = \(last.t) s, beyond the stroke-log limit"
          + " of \(StrokeLog.maximumSeconds) s: lower --start or raise --speed")
    }
    let far = simulation.viewPoints(drawing).joined().first {
      max(abs($0.x), abs($0.y)) > RemoteAssistSession.maximumPointCoordinate
    }
    if let far {
      throw UsageError(
        "--scale puts point (\(far.x), \(far.y)) beyond ±"
          + "\(RemoteAssistSession.maximumPointCoordinate) points from the view centre (the"
          + " receiver's limit): lower --scale")
    }
    if let out = args.value("--out") {
      try FileIO.writeAtomically(Array(log.jsonLines.utf8), to: out)
      output.printError(
        "arsim strokes: \(drawing.word.isEmpty ? "drawing" : drawing.word) \(index): "
          + "\(drawing.strokes.count) strokes, \(drawing.pointCount) points, "
          + "\(log.messages.count) messages → \(out)")
    } else {
      output.standardOutput(log.jsonLines)
    }
    return .ok
  }
}
