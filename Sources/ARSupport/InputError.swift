/// Where in an input a problem was found: file, and line or byte offset, and field.
public struct InputLocation: Hashable, Sendable, CustomStringConvertible {
  /// The file path as the user gave it (or resolved from a scene file).
  public var file: String
  /// 1-based line number, for text formats.
  public var line: Int?
  /// 0-based byte offset, for binary formats.
  public var byteOffset: Int?
  /// The field or column name, when one is at fault.
  public var field: String?

  /// Creates a location.
  public init(file: String, line: Int? = nil, byteOffset: Int? = nil, field: String? = nil) {
    self.file = file
    self.line = line
    self.byteOffset = byteOffset
    self.field = field
  }

  /// `file:line: field 'x'` or `file@offset: field 'x'`, as compilers print locations.
  public var description: String {
    var s = InputText.escaped(file)
    if let line { s += ":\(line)" }
    if let byteOffset { s += " (byte \(byteOffset))" }
    // Field paths come from the input's own keys, so they are quoted as excerpts too.
    if let field { s += ": field " + InputText.quoted(field, limit: 80) }
    return s
  }
}

/// The class of an input problem; the CLI maps it to a sysexits code.
public enum InputErrorKind: Sendable {
  /// Malformed or invalid content (exit 65, EX_DATAERR).
  case badData
  /// A file that does not exist or cannot be read (exit 66, EX_NOINPUT).
  case missingInput
  /// Wrong arguments or options (exit 64, EX_USAGE).
  case usage
  /// Output could not be written (exit 73, EX_CANTCREAT).
  case cannotCreate
  /// A resource is busy for now, e.g. another process writes into the output folder; trying
  /// again later may work (exit 75, EX_TEMPFAIL).
  case temporaryFailure
}

/// An error in user input that names where it is. Every reader's and codec's error type
/// conforms, so the CLI reports all of them the same way.
public protocol LocatedError: Error, CustomStringConvertible {
  /// Where the problem is.
  var location: InputLocation { get }
  /// What kind of problem it is.
  var kind: InputErrorKind { get }
  /// The problem, without the location (e.g. "expected 8 columns, found 7").
  var reason: String { get }
}

extension LocatedError {
  /// `location: reason`.
  public var description: String { "\(location): \(reason)" }
}

/// A generic located error for readers that need no cases of their own.
public struct InputError: LocatedError, Hashable {
  /// Where the problem is.
  public var location: InputLocation
  /// What kind of problem it is.
  public var kind: InputErrorKind
  /// The problem.
  public var reason: String
  /// For a file the scene names (a model, texture, track, image list): the scene file, field
  /// and line that named it, printed after the reason as `(named by scene.json:12: field 'x')`.
  public var namedBy: InputLocation?

  /// Creates an error.
  public init(_ kind: InputErrorKind = .badData, _ location: InputLocation, _ reason: String) {
    self.location = location
    self.kind = kind
    self.reason = reason
  }

  /// `location: reason`, then `(named by …)` when a scene named the file.
  public var description: String {
    "\(location): \(reason)" + (namedBy.map { " (named by \($0))" } ?? "")
  }
}
