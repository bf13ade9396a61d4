import ARRender
import ARReplay

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
      for line in TrackSummary(track).textLines { output.print(line) }
      return .ok
    case "convert":
      guard let target = parsed.target else { throw UsageError("track convert needs --to tum") }
      guard target == "tum" else {
        throw UsageError("--to '\(target)': only 'tum' is supported")
      }
      guard parsed.positionals.count == 2 else {
        throw UsageError("track convert takes FILE and OUT, got \(parsed.positionals.count)")
      }
      let track = try CameraTrack.read(path: parsed.positionals[0], options: parsed.options)
      for warning in track.warnings { output.printError("arsim track: warning: \(warning)") }
      try FileIO.writeAtomically(Array(track.tumText.utf8), to: parsed.positionals[1])
      return .ok
    default:
      throw UsageError("unknown track subcommand '\(subcommand)': expected 'info' or 'convert'")
    }
  }

  /// Positional arguments and flags of `track` subcommands.
  struct ParsedArguments {
    var positionals: [String] = []
    var options = TrackReadOptions()
    var target: String?

    init(_ arguments: [String]) throws {
      var index = 0
      func value(_ flag: String) throws -> String {
        index += 1
        guard index < arguments.count else { throw UsageError("\(flag) needs a value") }
        return arguments[index]
      }
      while index < arguments.count {
        let argument = arguments[index]
        switch argument {
        case "--format":
          let name = try value(argument)
          guard let format = TrackFormat(rawValue: name) else {
            throw UsageError("--format '\(name)': expected one of \(names(TrackFormat.self))")
          }
          options.format = format
        case "--times": options.timesPath = try value(argument)
        case "--sensor": options.sensorPath = try value(argument)
        case "--camera-axes":
          let name = try value(argument)
          guard let axes = CameraAxes(rawValue: name) else {
            throw UsageError("--camera-axes '\(name)': expected one of \(names(CameraAxes.self))")
          }
          options.cameraAxes = axes
        case "--world-up":
          let name = try value(argument)
          guard let up = WorldUp(rawValue: name) else {
            throw UsageError("--world-up '\(name)': expected one of \(names(WorldUp.self))")
          }
          options.worldUp = up
        case "--to": target = try value(argument)
        default:
          if argument.hasPrefix("--") { throw UsageError("unknown option '\(argument)'") }
          positionals.append(argument)
        }
        index += 1
      }
    }

    private func names<T: CaseIterable & RawRepresentable>(_: T.Type) -> String
    where T.RawValue == String {
      T.allCases.map(\.rawValue).joined(separator: ", ")
    }
  }
}
