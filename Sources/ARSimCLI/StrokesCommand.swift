import ARMath
import ARRender
import ARReplay

/// `arsim strokes from-quickdraw FILE.ndjson --drawing N [--view WxH] [--scale S] [--start T]
/// [--speed F] [--out LOG.jsonl]`: the messages a helper drawing a Quick, Draw! drawing sends, as a stroke
/// log (JSON Lines) on standard output or into `--out` (written atomically).
enum StrokesCommand {
  static func run(_ arguments: [String], output: CommandOutput) throws -> ExitCode {
    guard arguments.first == "from-quickdraw" else {
      throw UsageError("expected 'from-quickdraw' (see arsim help)")
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
      guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w > 0, h > 0,
        w.isFinite, h.isFinite
      else { throw UsageError("--view '\(view)': expected WIDTHxHEIGHT in points, e.g. 390x844") }
      simulation.viewSize = Vector2(w, h)
    }
    if let scale = try args.number("--scale") {
      guard scale > 0 else { throw UsageError("--scale must be positive") }
      simulation.pointsPerCanvasPixel = scale
    }
    if let start = try args.number("--start") {
      guard start >= 0 else { throw UsageError("--start must be ≥ 0 seconds") }
      simulation.start = start
    }
    if let speed = try args.number("--speed") {
      guard (0.001...1000).contains(speed) else {
        throw UsageError("--speed \(speed): expected a factor in 0.001…1000")
      }
      simulation.speed = speed
    }
    if let out = args.value("--out") {
      try refuseOverwritingInputs(out, label: "--out", inputs: [args.positionals[0]])
    }
    let drawing = try QuickDrawDrawing.read(path: args.positionals[0], index: index)
    let log = StrokeLog(messages: simulation.messages(for: drawing))
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
