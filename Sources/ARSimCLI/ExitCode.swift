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
  /// A tool or file ARSim needs is not installed (ffmpeg), or a live peer is absent, too slow or
  /// went away (EX_UNAVAILABLE).
  case unavailable = 69
  /// An internal error (EX_SOFTWARE).
  case internalError = 70
  /// A system call failed (EX_OSERR).
  case systemError = 71
  /// An output file could not be created (EX_CANTCREAT).
  case cannotCreate = 73
  /// Standard output could not be written, e.g. `> /dev/full` (EX_IOERR).
  case outputError = 74
  /// A busy resource, e.g. an output folder another run is writing into (EX_TEMPFAIL).
  case temporaryFailure = 75
  /// A live peer broke the handshake or the wire format (EX_PROTOCOL).
  case protocolError = 76
  /// Stopped by SIGINT or SIGTERM after a clean shutdown (128 + SIGINT).
  case interrupted = 130

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
