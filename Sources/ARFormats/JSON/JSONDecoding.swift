import ARSupport
import Foundation

/// Helpers for reporting `JSONDecoder` failures as file:line:field messages.
package enum JSONDecoding {
  /// A coding key for any string.
  package struct AnyKey: CodingKey {
    package var stringValue: String
    package var intValue: Int?
    package init(_ string: String) {
      stringValue = string
      intValue = nil
    }
    package init?(stringValue: String) { self.init(stringValue) }
    package init?(intValue: Int) {
      stringValue = String(intValue)
      self.intValue = intValue
    }
  }

  /// The dotted field path (`output.fps`, `lights[1].color`) and a short reason.
  package static func describe(_ error: DecodingError) -> (field: String?, reason: String) {
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

  /// The located error for a failed decode of `bytes` (a whole file when `line` is nil, else
  /// that 1-based line of `file`): a syntax error gets its line, column and enclosing field
  /// from `JSONSyntaxLocator`; a schema error its field path.
  package static func locatedError(
    _ error: DecodingError, bytes: [UInt8], file: String, line: Int? = nil
  ) -> InputError {
    if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
      let problem = JSONSyntaxLocator.firstProblem(in: bytes)
    {
      let where_ =
        line == nil
        ? "column \(problem.column), byte \(problem.byteOffset)" : "column \(problem.column)"
      return InputError(
        .badData,
        InputLocation(file: file, line: line ?? problem.line, field: problem.field),
        "invalid JSON at \(where_): \(problem.reason)")
    }
    var (field, reason) = describe(error)
    if case .dataCorrupted(let context) = error,
      // JSONInteger's, JSONUnsignedInteger's and the tracking section's own (ARTracking).
      context.debugDescription.hasPrefix("expected an integer from ")
    {
      reason = context.debugDescription
      if let field, let text = JSONSyntaxLocator.numberText(ofField: field, in: bytes) {
        reason += ", found " + InputText.quoted(text).dropFirst().dropLast()
      }
    }
    return InputError(.badData, InputLocation(file: file, line: line, field: field), reason)
  }

  private static func readable(_ type: Any.Type) -> String {
    switch type {
    case is Double.Type, is Float.Type: return "a number"
    case is Int.Type, is UInt.Type: return "an integer"
    case is String.Type: return "a string"
    case is Bool.Type: return "true or false"
    default:
      let name = "\(type)"
      if name.hasPrefix("Array") || name.hasPrefix("SIMD") { return "an array" }
      if name.hasPrefix("Dictionary") { return "an object" }
      return name
    }
  }
}
