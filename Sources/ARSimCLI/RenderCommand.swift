import ARRender

/// `arsim render`.
enum RenderCommand {
  static func run(_ arguments: [String], output: CommandOutput) throws -> ExitCode {
    throw UsageError("not implemented yet")
  }
}
