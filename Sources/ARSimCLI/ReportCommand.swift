import ARReport
import ARSupport

/// `arsim report DIR`: writes `DIR/report.html` (Documentation/Watching.md, "Report").
enum ReportCommand {
  static func run(_ arguments: [String], output: CommandOutput) throws -> ExitCode {
    let args = try Arguments(arguments, valueOptions: [])
    guard args.positionals.count == 1 else {
      throw UsageError("report takes one output folder, got \(args.positionals.count)")
    }
    return try write(args.positionals[0], output: output)
  }

  static func write(_ directory: String, output: CommandOutput) throws -> ExitCode {
    let summary = try ReplayReport().write(directory: directory)
    output.printError(
      "arsim report: \(summary.path) (\(summary.bytes / 1024) KiB, "
        + "\(counted(summary.thumbnails, "thumbnail")), \(counted(summary.events, "event")))")
    // The page's notes on the terminal too: a line left out is not only in the HTML.
    for note in summary.notes { output.printError("arsim report: note: " + note) }
    return .ok
  }
}
