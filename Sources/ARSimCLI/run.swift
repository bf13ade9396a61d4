import ARCameraImages
import ARFormats
import ARRender
import ARReplay
import ARSession
import ARSupport

/// The top-level usage text.
let usage = """
  USAGE: arsim <command> [options]

  COMMANDS:
    render SCENE.json [--out DIR] [--frames A..B] [--shard I/N|auto|auto/N] [--threads N]
           [--helper-view] [--participant ID] [--hud] [--video OUT.mp4] [--video-timeout S]
           [--report] [--wait-for-lock] [--debug feature-points]
                            Replay a scene and write PNG frames, events, trace and run.json
                            (--helper-view: also the remote helper's screen, DIR/helper/; a
                            collaborative scene: one folder per participant); --hud draws
                            the apps' on-screen text, --video also encodes the frames
                            (ffmpeg), --report writes report.html, --debug feature-points
                            draws the environment's feature points.
    render SCENE.json --strokes-port Q [--host H] [--as-fast-as-possible] [--out DIR]
           [--frames A..B] [--threads N] [--wait-for-lock]
                            Render at wall-clock pace, taking stroke messages on a loopback port.
    merge OUT SHARD_DIR... [--copy] [--wait-for-lock]
                            Join the folders of render --shard runs into one (Scaling.md).
    video DIR OUT.mp4 [--fps F] [--crf N] [--preset P]
                            Encode an output folder's frames as an H.264 MP4 (ffmpeg); one
                            OUT-<view>.mp4 per participant view.
    report DIR              Write DIR/report.html: contact sheet, event timeline, map, timings.
    track info FILE [--format F] [--times FILE] [--sensor FILE]
               [--camera-axes opencv|arkit|androidSensor] [--world-up y|z|minusY]
                            Summarise a camera track.
    track convert FILE --to tum OUT [same options as info]
                            Convert a camera track to TUM text in ARKit frames.
    strokes from-quickdraw FILE.ndjson --drawing N [--view WxH] [--scale S] [--start T]
                           [--speed F] [--out LOG.jsonl]
                            Turn a Quick, Draw! drawing into a stroke log (JSON Lines).
    stream SCENE.json --port P --tx-token T --rx-token R [--host H] [--out DIR]
           [--frames A..B] [--threads N] [--pixel-format i420|bgra] [--as-fast-as-possible]
           [--strokes-port Q] [--connect-timeout S] [--handshake-timeout S] [--send-timeout S]
           [--wait-for-lock]
                            Stream the frames live to a receiver (the screen-share handshake).
    strokes send LOG.jsonl --port Q [--host H] [--speed F] [--connect-timeout S]
                            Play a stroke log into a live session's strokes port.
    receive --port P --peer-token T --my-token R --out DIR [--no-png] [--host H]
            [--accept-timeout S] [--handshake-timeout S] [--idle-timeout S] [--wait-for-lock]
                            Accept one live stream (the app side) and write its frames.
    compare EXPECTED ACTUAL [--threshold T] [--max-diff-pixels N | --max-diff-fraction F]
            [--diff OUT] [--exact] [--verbose]
                            Compare two PNG files (--diff OUT: the diff image as a PNG at
                            OUT, also when they match) or two folders of PNGs (the first
                            failing frames and a summary, --verbose: every one; OUT/report.html).
    bench [B1|B2|B3|B4|B5|B6|S1 ...] [--frames N] [--threads N] [--supersampling N]
          [--png fast|small] [--sequential] [--instruction-set automatic|baseline|avx2|avx512]
          [--size WxH] [--spheres N] [--track FILE] [--out DIR] [--participants N]
                            Run the benchmarks (Documentation/Performance.md): B1 1920×1440
                            1000 spheres PNG, B2 1280×720 10 000 spheres PNG, B3 B1 render
                            only, B4 N collaborative views (--participants, 4 by default),
                            B5 B1 in a 100 000-triangle textured room, B6 B1 over a distinct
                            1920×1440 JPEG camera image per frame, S1 a 10⁶-message stroke
                            log; none named: B1 B2 B3 S1; --frames 300 by default. --size and
                            --spheres change B1–B3's output size and sphere count.
    bench live [--size WxH] [--fps F] [--seconds S] [--as-fast-as-possible] [--threads N]
               [--track FILE] [--out DIR]
                            Stream B1's load to an in-process receiver (Documentation/Live.md).

  arsim --version prints the version; arsim help prints this text, arsim COMMAND --help a
  command's lines of it.

  Exit codes: 0 ok, 1 images differ, 64 usage, 65 bad data, 66 missing input,
  69 unavailable (a needed tool or font missing: ffmpeg, DejaVu; a live peer refused, timed out
  or went away), 70 internal, 71 system error, 73 cannot create output, 74 cannot write
  standard output, 75 output folder busy, 76 live protocol error, 130 interrupted.
  """

/// Runs the `arsim` command line with `arguments` (without the program name) and returns the
/// process exit code (sysexits: 0 ok, 1 images differ, 64 usage, 65 bad data, 66 missing input,
/// 70 internal, 73 cannot create output, 74 cannot write standard output, 75 output folder
/// busy). Scenes may use the built-in session kinds
/// (`SessionRegistry.builtIn`).
public func run(arguments: [String]) -> Int32 {
  run(arguments: arguments, registry: .builtIn, output: .standard)
}

/// Runs the command line with the session kinds of `registry` (a user's executable passes
/// `.builtIn` with its own kinds registered after them; Documentation/CustomSessions.md).
public func run(arguments: [String], registry: SessionRegistry) -> Int32 {
  run(arguments: arguments, registry: registry, output: .standard)
}

/// Runs the command line writing to `output` (in-process tests capture it).
public func run(arguments: [String], output: CommandOutput) -> Int32 {
  run(arguments: arguments, registry: .builtIn, output: output)
}

/// Runs the command line with the session kinds of `registry`, and `frameSinks`' sinks added to
/// every `arsim render` run (each view's, in a collaborative scene) after ARSim's own: a user's
/// own frame outputs (Documentation/CustomSessions.md, Examples/PinKind).
public func run(
  arguments: [String], registry: SessionRegistry,
  frameSinks: @escaping @Sendable (FrameSinkSetup) throws -> [any FrameSink]
) -> Int32 {
  run(arguments: arguments, registry: registry, output: .standard, frameSinks: frameSinks)
}

/// Runs the command line with the session kinds of `registry`, writing to `output`; `frameSinks`
/// as in `run(arguments:registry:frameSinks:)`. Whatever the command, a failed write to
/// standard output (`> /dev/full`) ends it with 74 and the system's reason on standard error:
/// a listing or a report that did not reach its reader is not a success.
public func run(
  arguments: [String], registry: SessionRegistry, output: CommandOutput,
  frameSinks: (@Sendable (FrameSinkSetup) throws -> [any FrameSink])? = nil
) -> Int32 {
  let code = dispatch(
    arguments: arguments, registry: registry, output: output, frameSinks: frameSinks)
  if let reason = output.standardOutputFailure() {
    output.printError("arsim: error: cannot write standard output: \(reason)")
    return ExitCode.outputError.rawValue
  }
  return code
}

private func dispatch(
  arguments: [String], registry: SessionRegistry, output: CommandOutput,
  frameSinks: (@Sendable (FrameSinkSetup) throws -> [any FrameSink])?
) -> Int32 {
  guard let command = arguments.first else {
    output.printError(usage)
    return ExitCode.usage.rawValue
  }
  let rest = Array(arguments.dropFirst())
  if command == "--version" {
    output.print("arsim \(Replay.version)")
    return ExitCode.ok.rawValue
  }
  // `compare` prints its own detailed usage; the others print their block of the overview.
  // `bench live --help` gives the `bench live` lines only.
  if command != "compare", rest.contains("--help") || rest.contains("-h"),
    let text = rest.first.flatMap({ commandUsage(command, subcommand: $0) })
      ?? commandUsage(command)
  {
    output.print(text)
    return ExitCode.ok.rawValue
  }
  let code: ExitCode
  do {
    switch command {
    case "render":
      code = try RenderCommand.run(
        rest, output: output, registry: registry, frameSinks: frameSinks)
    case "track": code = try TrackCommand.run(rest, output: output)
    case "strokes": code = try StrokesCommand.run(rest, output: output)
    case "compare": code = try CompareCommand.run(rest, output: output)
    case "bench": code = try BenchCommand.run(rest, output: output)
    case "receive": code = try ReceiveCommand.run(rest, output: output)
    case "stream": code = try StreamCommand.run(rest, output: output, registry: registry)
    case "merge": code = try MergeCommand.run(rest, output: output)
    case "video": code = try VideoCommand.run(rest, output: output)
    case "report": code = try ReportCommand.run(rest, output: output)
    case "help", "--help", "-h":
      // `arsim help COMMAND [SUBCOMMAND]`: that command's lines (its subcommands' among them),
      // as `arsim COMMAND --help` prints them.
      guard rest.count <= 2 else {
        throw UsageError("help takes one command, got \(rest.count) words")
      }
      // `arsim help --help` (or `help help`) is the overview too.
      if let topic = rest.first, !["help", "--help", "-h"].contains(topic) {
        guard let text = commandUsage(topic) else {
          throw UsageError(
            "no command \(InputText.quoted(topic))"
              + didYouMean(topic, among: commands) + "; `arsim help` lists them")
        }
        // A second word must be one of the command's subcommands (`help track info`).
        if rest.count == 2, !text.contains("arsim \(topic) \(rest[1]) ") {
          throw UsageError(
            "\(InputText.quoted(rest[1])) is no subcommand of \(topic); `arsim help \(topic)` "
              + "lists what it takes")
        }
        output.print(text)
      } else {
        guard rest.count <= 1 else {
          throw UsageError("help takes one command, got \(rest.count) words")
        }
        output.print(usage)
      }
      code = .ok
    default:
      // The nearest command, not the whole overview: a typo should not scroll the screen.
      output.printError(
        "arsim: unknown command \(InputText.quoted(command))"
          + didYouMean(command, among: commands + ["--help", "--version"])
          + "; `arsim help` lists the commands")
      code = .usage
    }
  } catch let error as UsageError {
    output.printError("arsim \(command): \(error.message)")
    code = .usage
  } catch let error as CameraVideoError {
    output.printError("arsim \(command): error: \(error.description)")
    switch error {
    case .toolNotFound, .toolFailed: code = .unavailable
    case .failed: code = .cannotCreate
    }
  } catch let error as ToolUnavailable {
    output.printError("arsim \(command): error: \(error.message)")
    code = .unavailable
  } catch let error as any LocatedError {
    output.printError("arsim \(command): error: \(error.description)")
    code = ExitCode(error.kind)
  } catch {
    output.printError("arsim \(command): internal error: \(error)")
    code = .internalError
  }
  return code.rawValue
}

/// The commands `run` knows, for suggestions.
let commands = [
  "render", "track", "strokes", "compare", "bench", "receive", "stream", "merge", "video",
  "report", "help",
]

/// The lines of `usage` that describe `command` (`track` gives both `track info` and
/// `track convert`), as `arsim COMMAND …` lines, with the exit codes; `nil` for a command the
/// overview does not list.
/// - Parameter subcommand: when given, only the lines of `command subcommand` (`bench live`);
///   nil when the overview has no such lines.
func commandUsage(_ command: String, subcommand: String? = nil) -> String? {
  var block: [String] = []
  var inBlock = false
  for line in usage.split(separator: "\n", omittingEmptySubsequences: false) {
    // Command lines are indented two spaces, their continuation lines more.
    if line.hasPrefix("  "), line.dropFirst(2).first != " " {
      let words = line.dropFirst(2).split(separator: " ").prefix(2).map(String.init)
      inBlock =
        words.first == command && (subcommand == nil || words.dropFirst().first == subcommand)
      if inBlock { block.append("  arsim " + line.dropFirst(2)) }
    } else if inBlock, line.hasPrefix("    ") {
      block.append("      " + line)
    } else {
      inBlock = false
    }
  }
  guard !block.isEmpty else { return nil }
  let exitCodes = usage.split(separator: "\n").drop { !$0.hasPrefix("Exit codes") }
  return (["USAGE:"] + block + [""] + exitCodes.map(String.init)).joined(separator: "\n")
}

/// A command-line usage mistake (exit 64).
struct UsageError: Error {
  var message: String
  init(_ message: String) { self.message = message }
}
