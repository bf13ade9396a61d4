import ARLive
import ARFormats
import ARReplay
import ARSupport

/// `arsim strokes send LOG --port Q [--host H] [--speed F] [--connect-timeout S]`: plays a
/// stroke log into a live session's strokes port at the log's times (Documentation/Live.md).
enum StrokesSendCommand {
  static func run(_ arguments: [String], output: CommandOutput) throws -> ExitCode {
    let args = try Arguments(
      arguments, valueOptions: LiveOptions.valueOptions.union(["--speed"]))
    guard args.positionals.count == 1 else {
      throw UsageError("strokes send takes one LOG.jsonl, got \(args.positionals.count)")
    }
    guard let endpoint = try LiveOptions.endpoint(args, allowsZero: false) else {
      throw UsageError("--port Q is required")
    }
    var sender = StrokeLogSender(endpoint: endpoint)
    sender.connectTimeout = try LiveOptions.timeout(args, "--connect-timeout", default: 5)
    if let speed = try args.number(
      "--speed", expected: "a factor from 0.001 to 1000", where: { (0.001...1000).contains($0) })
    {
      sender.speed = speed
    }
    let log = try StrokeLog.read(path: args.positionals[0])
    for warning in log.warnings { output.printError("arsim strokes: warning: \(warning)") }
    StopSignal.installInterruptHandlers()
    do {
      let sent = try sender.send(log)
      output.printError("arsim strokes: \(sent) messages → \(endpoint)")
      return .ok
    } catch {
      output.printError("arsim strokes: \(error.description)")
      return ExitCode(error)
    }
  }
}
