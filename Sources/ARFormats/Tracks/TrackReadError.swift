import ARSupport

/// A problem reading a camera track, naming the file, the 1-based line and the column at fault.
///
/// The CLI prints it as `file:line: field 'qw': reason` and exits 66 for `.missingInput`
/// (an unreadable file) and 65 for `.badData` (everything else).
public struct TrackReadError: LocatedError, Hashable {
  /// Where the problem is: file, line (when known) and field (the column name, e.g. `qw`).
  public var location: InputLocation
  /// `.missingInput` for a file that cannot be opened or read, `.badData` otherwise.
  public var kind: InputErrorKind
  /// The problem, without the location.
  public var reason: String

  /// Creates an error.
  public init(
    _ kind: InputErrorKind = .badData, file: String, line: Int? = nil, field: String? = nil,
    _ reason: String
  ) {
    self.location = InputLocation(file: file, line: line, field: field)
    self.kind = kind
    self.reason = reason
  }
}

/// A question asked of a track that it cannot answer: a time outside its span, or a bad
/// resampling rate.
public enum TrackQueryError: Error, Hashable, CustomStringConvertible {
  /// `requestedSeconds` lies outside `[firstSeconds, lastSeconds]` and clamping was off.
  case timeOutOfRange(requestedSeconds: Double, firstSeconds: Double, lastSeconds: Double)
  /// A resampling rate or duration that is not a positive finite number.
  case invalidResampling(String)

  /// A one-line explanation.
  public var description: String {
    switch self {
    case .timeOutOfRange(let t, let first, let last):
      return "time \(t) s is outside the track's span [\(first), \(last)] s"
        + " (ask for clamping to hold the end poses)"
    case .invalidResampling(let reason):
      return "invalid resampling: \(reason)"
    }
  }
}
