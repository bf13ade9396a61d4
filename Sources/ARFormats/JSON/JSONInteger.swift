import ARSupport

/// An integer field of a JSON input, decoded through `Double` so that `100.5` or `1e30` is
/// reported with its field path ("expected an integer") instead of Foundation's bare "not valid
/// JSON".
public struct JSONInteger: Decodable, Hashable, Sendable {
  /// The value.
  public var value: Int

  /// Creates a value.
  public init(_ value: Int) { self.value = value }

  /// Decodes a whole number with |x| ≤ 2⁵³.
  /// - Throws: `DecodingError.dataCorrupted` (with the coding path) for fractions and values
  ///   out of range.
  public init(from decoder: Decoder) throws {
    let container = try decoder.singleValueContainer()
    let number = try container.decode(Double.self)
    guard number.isFinite, number == number.rounded(), abs(number) <= 9_007_199_254_740_992
    else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "expected an integer, found \(number)")
    }
    value = Int(number)
  }
}
