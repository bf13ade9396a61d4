import ARLive
import ARSupport
import Foundation

/// `arsim receive --port P --peer-token T --my-token R --out DIR [--no-png] [--host H]
/// [--accept-timeout S] [--handshake-timeout S] [--idle-timeout S] [--wait-for-lock]`: the app
/// side of a live stream (Documentation/Live.md). DIR is checked and locked before listening.
enum ReceiveCommand {
  static func run(_ arguments: [String], output: CommandOutput) throws -> ExitCode {
    let args = try Arguments(
      arguments,
      valueOptions: LiveOptions.valueOptions.union([
        "--peer-token", "--my-token", "--out", "--accept-timeout",
      ]), flagOptions: ["--no-png", "--wait-for-lock"])
    guard args.positionals.isEmpty else {
      throw UsageError(
        "receive takes no positional arguments, got \(InputText.quoted(args.positionals[0]))")
    }
    guard let endpoint = try LiveOptions.endpoint(args, allowsZero: true) else {
      throw UsageError("--port P is required")
    }
    guard let directory = args.value("--out") else { throw UsageError("--out DIR is required") }
    let acceptor = BroadcastAcceptor(
      peerToken: try LiveOptions.token(args, "--peer-token"),
      myToken: try LiveOptions.token(args, "--my-token"),
      acceptTimeout: try LiveOptions.timeout(args, "--accept-timeout", default: 30),
      handshakeTimeout: try LiveOptions.timeout(args, "--handshake-timeout", default: 5))
    var options = FrameReceiver.Options(
      endpoint: endpoint, acceptor: acceptor, outputDirectory: directory)
    options.writesPNG = !args.has("--no-png")
    options.waitsForLock = args.has("--wait-for-lock")
    options.lockWaitNotice = { output.printError("arsim receive: \($0)") }
    options.idleTimeout = try LiveOptions.timeout(args, "--idle-timeout", default: 10)
    StopSignal.installInterruptHandlers()
    let summary: FrameReceiver.Summary
    do {
      summary = try FrameReceiver(options: options).run { bound in
        output.printError("arsim receive: listening on \(bound)")
      }
    } catch let error as LiveError {
      output.printError("arsim receive: \(error.description)")
      noteEarlierFrames(in: directory, written: [], output: output)
      return ExitCode(error)
    }
    noteEarlierFrames(in: directory, written: summary.files, output: output)
    var line =
      "arsim receive: \(counted(summary.frames, "frame")), \(summary.missing) missing in "
      + "\(counted(summary.gaps.count, "gap")) → \(InputText.escaped(directory))/received.jsonl"
    if summary.outOfOrder > 0 { line += ", \(summary.outOfOrder) out of order" }
    if !summary.duplicates.isEmpty { line += ", \(summary.duplicates.count) repeated" }
    output.printError(line)
    for sequence in summary.duplicates.prefix(10) {
      output.printError(
        "arsim receive: warning: sequence \(sequence) arrived again; the first frame's file "
          + "stays, the repeat is only logged (duplicate in received.jsonl)")
    }
    for gap in summary.gaps.prefix(10) {
      output.printError(
        "arsim receive: gap: \(counted(gap.count, "frame")) missing from sequence \(gap.first)")
    }
    if let failure = summary.failure {
      output.printError("arsim receive: stream ended early: \(failure.description)")
      return ExitCode(failure)
    }
    return .ok
  }

  /// Says how many frame files in `directory` an earlier run left (not among `written`), as
  /// `render` does: `received.jsonl` and `receive.json` describe only this run's.
  static func noteEarlierFrames(in directory: String, written: Set<String>, output: CommandOutput) {
    let numbers = Set(written.compactMap { FrameFileName.parse($0)?.index })
    let earlier = RenderCommand.otherFrames(in: directory, written: numbers)
    guard earlier > 0 else { return }
    output.printError(
      "arsim receive: note: \(InputText.escaped(directory)) also holds "
        + "\(counted(earlier, "frame file")) from earlier runs (received.jsonl lists this run's)")
  }
}
