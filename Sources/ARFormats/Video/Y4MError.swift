import ARSupport

/// An error reading a YUV4MPEG2 (`.y4m`) file, with the file, the byte offset and the field at
/// fault.
///
/// Byte offsets are 0-based from the start of the file: for a header field, the offset of its
/// token; for a frame, the offset of its `FRAME` marker or of its planes.
public enum Y4MError: LocatedError, Hashable {
  /// The file could not be opened or read (exit 66).
  case cannotRead(InputLocation, String)
  /// The stream header is malformed: missing signature, missing or invalid field (exit 65).
  case badHeader(InputLocation, String)
  /// The header is valid YUV4MPEG2 but uses a feature ARSim does not read: interlacing, a
  /// colour space other than 8-bit 4:2:0 or mono, an unknown colour range (exit 65).
  case unsupported(InputLocation, String)
  /// A frame does not start with a `FRAME` line (exit 65).
  case badFrameMarker(InputLocation, String)
  /// The file ends inside a frame's planes (exit 65).
  case truncatedFrame(InputLocation, expectedBytes: Int, foundBytes: Int)

  /// Where the problem is.
  public var location: InputLocation {
    switch self {
    case .cannotRead(let l, _), .badHeader(let l, _), .unsupported(let l, _),
      .badFrameMarker(let l, _), .truncatedFrame(let l, _, _):
      return l
    }
  }

  /// `.missingInput` for `cannotRead`, `.badData` otherwise.
  public var kind: InputErrorKind {
    if case .cannotRead = self { return .missingInput }
    return .badData
  }

  /// The problem, without the location.
  public var reason: String {
    switch self {
    case .cannotRead(_, let r): return "cannot read: \(r)"
    case .badHeader(_, let r): return "bad YUV4MPEG2 header: \(r)"
    case .unsupported(_, let r): return "unsupported YUV4MPEG2 stream: \(r)"
    case .badFrameMarker(_, let r): return "bad frame marker: \(r)"
    case .truncatedFrame(_, let expected, let found):
      return "truncated frame: expected \(expected) bytes of planes, found \(found)"
    }
  }
}
