import ARLive
import ARSupport
import Foundation

/// `arsim bench live [--size WxH] [--fps F] [--seconds S] [--as-fast-as-possible]
/// [--threads N] [--out DIR]`: the live stream benchmark (Documentation/Live.md, "Speed").
enum LiveBenchCommand {
  static func run(_ arguments: [String], output: CommandOutput) throws -> ExitCode {
    let args = try Arguments(
      arguments, valueOptions: ["--size", "--fps", "--seconds", "--threads", "--out", "--track"],
      flagOptions: ["--as-fast-as-possible"])
    guard args.positionals.isEmpty else {
      throw UsageError("bench live takes no positional arguments")
    }
    var settings = LiveBench.Settings()
    if let size = args.value("--size") {
      let parts = size.lowercased().split(separator: "x")
      guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
        (1...8192).contains(w), (1...8192).contains(h)
      else {
        throw UsageError("--size \(InputText.quoted(size)): expected WIDTHxHEIGHT, 1…8192 each")
      }
      (settings.width, settings.height) = (w, h)
    }
    settings.fps =
      try args.number("--fps", expected: "1 to 240", where: { (1...240).contains($0) }) ?? 60
    settings.seconds =
      try args.number("--seconds", expected: "0.1 to 3600", where: { (0.1...3600).contains($0) })
      ?? 60
    settings.threads = try args.integer("--threads", in: 0...1024) ?? 0
    settings.isPaced = !args.has("--as-fast-as-possible")
    if let track = args.value("--track") {
      // Named now: the bench's own scene file, which would name it later, is temporary.
      guard FileIO.exists(track) else {
        throw InputError(.missingInput, InputLocation(file: track), "--track: no such file")
      }
      settings.trackPath = track
    } else {
      try BenchCommand.checkDefaultTrack(settings.trackPath)
    }
    if let out = args.value("--out") {
      settings.folder = out
    } else {
      // As the other benches: a fixed name under /tmp is shared by concurrent runs (whose
      // output locks then refuse each other) and by other local users.
      settings.folder = try BenchCommand.makePrivateFolder()
      output.print(
        "bench: writing into \(settings.folder) (removed afterwards; --out DIR keeps it)")
    }
    defer {
      if args.value("--out") == nil { try? FileManager.default.removeItem(atPath: settings.folder) }
    }
    StopSignal.installInterruptHandlers()
    let result: LiveBench.Result
    do {
      result = try LiveBench(settings: settings).run()
    } catch let error as LiveError {
      output.printError("arsim bench live: \(error.description)")
      return ExitCode(error)
    }
    let live = result.live
    let received = result.received
    let rate = Double(max(0, received.frames - 1)) / max(received.seconds, 1e-9)
    func ms(_ values: [Double], _ q: Double) -> String {
      StreamCommand.percentile(values, q).map { formatted($0, 2) } ?? "-"
    }
    output.print(
      """
      live bench: \(settings.width)×\(settings.height) I420, B1 load (1000 spheres), \
      \(settings.isPaced ? "paced at \(formatted(settings.fps, 1)) frames/s" : "as fast as possible"), \
      \(formatted(settings.seconds, 1)) s of replay
        frames: \(result.frames) produced, \(live.framesOut) sent, \(live.dropped.count) dropped; \
      received \(received.frames), \(received.missing) missing in \(received.gaps.count) gaps
        rate:   \(formatted(rate, 2)) frames/s received over \(formatted(received.seconds, 2)) s \
      (wall \(formatted(result.seconds, 2)) s)
        tick to wire: median \(ms(live.tickToWire, 0.5)) ms, p99 \(ms(live.tickToWire, 0.99)) ms, \
      max \(ms(live.tickToWire, 1)) ms
      """)
    if args.value("--out") != nil {
      output.print(
        "  outputs: \(settings.folder)/sent (run.json), \(settings.folder)/received")
    }
    if let failure = live.failure as? LiveError {
      output.printError(liveStopLine("bench live", failure))
      return ExitCode(failure)
    }
    if let failure = live.failure { throw failure }
    let (code, message) = verdict(
      received: received.frames, sent: live.framesOut, produced: result.frames)
    if let message { output.printError(message) }
    return code
  }

  /// The exit code of a finished bench and its message: a receiver that got no frames measured
  /// nothing (69, EX_UNAVAILABLE: the peer got nothing), whatever the sender reported.
  static func verdict(received: Int, sent: Int, produced: Int) -> (ExitCode, String?) {
    guard received == 0 else { return (.ok, nil) }
    return (
      .unavailable,
      "arsim bench live: the receiver got no frames (\(sent) sent of \(produced)): "
        + "nothing was measured"
    )
  }
}
