import ARFormats
import Foundation

/// Encodes and decodes message payloads as the app does: Foundation's `JSONEncoder` and
/// `JSONDecoder` on the `Codable` structs, default strategies.
///
/// One deliberate difference: keys are sorted (`.sortedKeys`). The app's default encoder writes
/// keys in an unspecified order (Swift's hashed dictionary order, which changes from run to
/// run); sorted is one of the orders it can produce and keeps ARSim's output byte-stable.
/// Everything else is the default: numbers as Swift prints them (`0.1`, `1e-07`), `/` escaped
/// as `\/`, nil optionals left out.
public enum RTMPayloadCoding {
  /// The JSON bytes of `value`.
  /// - Throws: `EncodingError.invalidValue` for a non-finite number (the app's `try!` would
  ///   crash; ARSim reports it and sends nothing).
  public static func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return Array(try encoder.encode(value))
  }

  /// Decodes `bytes` as `Value`.
  /// - Throws: `RTMPayloadError` with a short reason and the field path when known.
  public static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8])
    throws(RTMPayloadError) -> Value
  {
    do {
      return try JSONDecoder().decode(type, from: Data(bytes))
    } catch let error as DecodingError {
      throw RTMPayloadError(error)
    } catch {
      throw RTMPayloadError(field: nil, reason: "\(error)")
    }
  }
}

/// Why a payload did not decode: where (a dotted field path such as `rotation[3]`) and why.
public struct RTMPayloadError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The field path, when the decoder named one.
  public var field: String?
  /// A short reason (`missing (required)`, `expected a number`, `invalid JSON`).
  public var reason: String

  /// Creates an error.
  public init(field: String?, reason: String) {
    self.field = field
    self.reason = reason
  }

  /// The field path and reason of a failed decode, worded as scene-file errors are
  /// (`JSONDecoding.describe`), except that a syntax error is just `invalid JSON`.
  init(_ error: DecodingError) {
    let (field, reason) = JSONDecoding.describe(error)
    if case .dataCorrupted(let context) = error {
      self.init(field: field, reason: context.codingPath.isEmpty ? "invalid JSON" : "invalid value")
    } else {
      self.init(field: field, reason: reason)
    }
  }

  /// `field: reason`, or the reason alone.
  public var description: String { field.map { "\($0): \(reason)" } ?? reason }
}
