import ARRender

/// `arsim compare`.
enum CompareCommand {
  static func run(_ arguments: [String], output: CommandOutput) throws -> ExitCode {
    throw UsageError("not implemented yet")
  }
}
