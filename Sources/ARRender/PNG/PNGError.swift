/// A PNG that could not be read or written, with the file and libpng's message.
public enum PNGError: LocatedError, Hashable {
  /// The bytes are not a PNG libpng can decode (bad signature, CRC error, truncated data,
  /// oversized image over 16384 px per side, …). Exit 65 (bad data) in the CLI.
  case decodingFailed(InputLocation, message: String)
  /// libpng refused to encode (empty image, out of memory). Exit 73 in the CLI.
  case encodingFailed(InputLocation, message: String)

  /// The file the problem is in.
  public var location: InputLocation {
    switch self {
    case .decodingFailed(let location, _), .encodingFailed(let location, _): location
    }
  }

  /// `.badData` for decoding, `.cannotCreate` for encoding.
  public var kind: InputErrorKind {
    switch self {
    case .decodingFailed: .badData
    case .encodingFailed: .cannotCreate
    }
  }

  /// "invalid PNG: <libpng message>" or "cannot encode PNG: <message>".
  public var reason: String {
    switch self {
    case .decodingFailed(_, let message): "invalid PNG: \(message)"
    case .encodingFailed(_, let message): "cannot encode PNG: \(message)"
    }
  }
}
