import ARRender

/// `arsim bench`.
enum BenchCommand {
  static func run(_ arguments: [String], output: CommandOutput) throws -> ExitCode {
    throw UsageError("not implemented yet")
  }
}
