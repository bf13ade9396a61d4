import ARRender

/// `arsim track`.
enum TrackCommand {
  static func run(_ arguments: [String], output: CommandOutput) throws -> ExitCode {
    throw UsageError("not implemented yet")
  }
}
