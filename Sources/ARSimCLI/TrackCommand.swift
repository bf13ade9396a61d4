import ARFormats
import ARRender
import ARReplay
import ARSession
import ARSupport

/// `arsim track info FILE [options]` and `arsim track convert FILE --to tum OUT [options]`.
///
/// Options: `--format F` (tum, arkit, kitti, euroc, arkitscenes, json), `--times FILE` (KITTI),
/// `--sensor FILE` (EuRoC sensor.yaml), `--camera-axes opencv|arkit`, `--world-up y|z|minusY`.
enum TrackCommand {
  static func run(_ arguments: [String], output: CommandOutput) throws -> ExitCode {
    guard let subcommand = arguments.first else {
      throw UsageError("expected 'info' or 'convert' (see arsim help)")
    }
    let parsed = try ParsedArguments(Array(arguments.dropFirst()))
    switch subcommand {
    case "info":
      guard parsed.positionals.count == 1 else {
        throw UsageError("track info takes one FILE, got \(parsed.positionals.count)")
      }
      let track = try CameraTrack.read(path: parsed.positionals[0], options: parsed.options)
      for warning in track.warnings { output.printError("arsim track: warning: \(warning)") }
      for line in TrackSummary(track).textLines { output.print(line) }
      return .ok
    case "convert":
      guard let target = parsed.target else { throw UsageError("track convert needs --to tum") }
      guard target == "tum" else {
        throw UsageError("--to \(InputText.quoted(target)): only 'tum' is supported")
      }
      guard parsed.positionals.count == 2 else {
        throw UsageError("track convert takes FILE and OUT, got \(parsed.positionals.count)")
      }
      try refuseOverwritingInputs(
        parsed.positionals[1], label: "OUT",
        inputs: [parsed.positionals[0], parsed.options.timesPath, parsed.options.sensorPath])
      try refuseUnusableOutputFile(parsed.positionals[1], label: "OUT")
      let track = try CameraTrack.read(path: parsed.positionals[0], options: parsed.options)
      for warning in track.warnings { output.printError("arsim track: warning: \(warning)") }
      try FileIO.writeAtomically(Array(track.tumText.utf8), to: parsed.positionals[1])
      return .ok
    default:
      throw UsageError(
        "unknown track subcommand \(InputText.quoted(subcommand)): expected 'info' or 'convert'"
          + didYouMean(subcommand, among: ["info", "convert"]))
    }
  }

  /// Positional arguments and flags of `track` subcommands.
  struct ParsedArguments {
    var positionals: [String]
    var options = TrackReadOptions()
    var target: String?

    init(_ arguments: [String]) throws {
      let args = try Arguments(
        arguments,
        valueOptions: ["--format", "--times", "--sensor", "--camera-axes", "--world-up", "--to"])
      positionals = args.positionals
      options.format = try args.choice("--format", TrackFormat.self)
      options.timesPath = args.value("--times")
      options.sensorPath = args.value("--sensor")
      options.cameraAxes = try args.choice("--camera-axes", CameraAxes.self)
      options.worldUp = try args.choice("--world-up", WorldUp.self)
      target = args.value("--to")
    }
  }
}
