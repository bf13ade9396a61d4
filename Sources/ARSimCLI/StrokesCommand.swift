import ARRender

/// `arsim strokes`.
enum StrokesCommand {
  static func run(_ arguments: [String], output: CommandOutput) throws -> ExitCode {
    throw UsageError("not implemented yet")
  }
}
