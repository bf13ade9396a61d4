import ARFormats
import ARRender
import ARSession
import ARSupport

/// Process exit codes (BSD sysexits), DESIGN §7.
public enum ExitCode: Int32, Sendable {
  /// Success.
  case ok = 0
  /// `compare`: the images differ beyond the tolerance.
  case imagesDiffer = 1
  /// Wrong arguments (EX_USAGE).
  case usage = 64
  /// Malformed input data (EX_DATAERR).
  case badData = 65
  /// A missing or unreadable input file (EX_NOINPUT).
  case missingInput = 66
  /// A tool or file ARSim needs is not installed, e.g. ffmpeg (EX_UNAVAILABLE).
  case unavailable = 69
  /// An internal error (EX_SOFTWARE).
  case internalError = 70
  /// An output file could not be created (EX_CANTCREAT).
  case cannotCreate = 73
  /// A busy resource, e.g. an output folder another run is writing into (EX_TEMPFAIL).
  case temporaryFailure = 75

  /// The exit code for an input error's kind.
  public init(_ kind: InputErrorKind) {
    switch kind {
    case .badData: self = .badData
    case .missingInput: self = .missingInput
    case .usage: self = .usage
    case .cannotCreate: self = .cannotCreate
    case .temporaryFailure: self = .temporaryFailure
    }
  }
}
