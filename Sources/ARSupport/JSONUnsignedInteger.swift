/// An unsigned 64-bit integer field of a JSON input (a random seed): every value 0…2⁶⁴−1 exactly,
/// and `-1`, `1e30` or `2.5` reported with its field path ("expected an integer from 0 to
/// 2^64-1, found 1e30") instead of Foundation's bare "not valid JSON", which names no place.
public struct JSONUnsignedInteger: Decodable, Hashable, Sendable {
  /// The value.
  public var value: UInt64

  /// Creates a value.
  public init(_ value: UInt64) { self.value = value }

  /// The error text; `JSONDecoding.locatedError` adds the number as written in the file.
  package static let expected = "expected an integer from 0 to 2^64-1"

  /// Decodes a whole number 0…2⁶⁴−1.
  /// - Throws: `DecodingError.dataCorrupted` (with the coding path) for anything else.
  public init(from decoder: Decoder) throws {
    let container = try decoder.singleValueContainer()
    // Foundation's own UInt64 decoding is exact; its failure carries no coding path.
    guard let number = try? container.decode(UInt64.self) else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: Self.expected)
    }
    value = number
  }
}
