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

  init(_ error: DecodingError) {
    func path(_ keys: [CodingKey]) -> String? {
      var out = ""
      for key in keys {
        if let index = key.intValue {
          out += "[\(index)]"
        } else {
          out += (out.isEmpty ? "" : ".") + key.stringValue
        }
      }
      return out.isEmpty ? nil : out
    }
    switch error {
    case .keyNotFound(let key, let context):
      self.init(field: path(context.codingPath + [key]), reason: "missing (required)")
    case .typeMismatch(let type, let context):
      self.init(field: path(context.codingPath), reason: "expected \(Self.readable(type))")
    case .valueNotFound(let type, let context):
      self.init(
        field: path(context.codingPath), reason: "expected \(Self.readable(type)), found null")
    case .dataCorrupted(let context):
      self.init(
        field: path(context.codingPath),
        reason: context.codingPath.isEmpty ? "invalid JSON" : "invalid value")
    @unknown default:
      self.init(field: nil, reason: "undecodable")
    }
  }

  /// `field: reason`, or the reason alone.
  public var description: String { field.map { "\($0): \(reason)" } ?? reason }

  private static func readable(_ type: Any.Type) -> String {
    switch type {
    case is Double.Type, is Float.Type: return "a number"
    case is Int.Type, is UInt.Type: return "an integer"
    case is String.Type: return "a string"
    case is Bool.Type: return "true or false"
    default:
      let name = "\(type)"
      if name.hasPrefix("Array") || name.hasPrefix("SIMD") { return "an array" }
      return "an object"
    }
  }
}
