/// An integer field of a JSON input, decoded through `Double` so that `100.5` or `1e30` is
/// reported with its field path ("expected an integer") instead of Foundation's bare "not valid
/// JSON".
public struct JSONInteger: Decodable, Hashable, Sendable {
  /// The value.
  public var value: Int

  /// Creates a value.
  public init(_ value: Int) { self.value = value }

  /// The error text; `JSONDecoding.locatedError` adds the number as written in the file
  /// (a `Double` would print 1000000000000000000 as 1e+18).
  package static let expected = "expected an integer from -2^53 to 2^53"

  /// Decodes a whole number with |x| ≤ 2⁵³.
  /// - Throws: `DecodingError.dataCorrupted` (with the coding path) for fractions and values
  ///   out of range.
  public init(from decoder: Decoder) throws {
    let container = try decoder.singleValueContainer()
    let number = try container.decode(Double.self)
    guard number.isFinite, number == number.rounded(), abs(number) <= 9_007_199_254_740_992
    else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: Self.expected)
    }
    value = Int(number)
  }
}
