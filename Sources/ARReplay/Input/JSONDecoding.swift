import Foundation

/// Helpers for reporting `JSONDecoder` failures as file:line:field messages.
enum JSONDecoding {
  /// A coding key for any string.
  struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) {
      stringValue = string
      intValue = nil
    }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) {
      stringValue = String(intValue)
      self.intValue = intValue
    }
  }

  /// The dotted field path (`remoteAssist.mode`, `lights[1].color`) and a short reason.
  static func describe(_ error: DecodingError) -> (field: String?, reason: String) {
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
      return (path(context.codingPath + [key]), "missing (required)")
    case .typeMismatch(let type, let context):
      return (path(context.codingPath), "expected \(readable(type))")
    case .valueNotFound(let type, let context):
      return (path(context.codingPath), "expected \(readable(type)), found null")
    case .dataCorrupted(let context):
      let underlying = (context.underlyingError as NSError?)?.userInfo["NSDebugDescription"]
      let detail = underlying.map { "\($0)" } ?? context.debugDescription
      return (path(context.codingPath), "invalid JSON or value (\(detail))")
    @unknown default:
      return (nil, "\(error)")
    }
  }

  private static func readable(_ type: Any.Type) -> String {
    switch type {
    case is Double.Type, is Float.Type: return "a number"
    case is Int.Type: return "an integer"
    case is String.Type: return "a string"
    case is Bool.Type: return "true or false"
    default:
      let name = "\(type)"
      if name.hasPrefix("Array") { return "an array" }
      if name.hasPrefix("Dictionary") { return "an object" }
      return name
    }
  }
}
