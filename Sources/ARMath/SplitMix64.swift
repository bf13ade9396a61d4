/// SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators", 2014): a
/// tiny seeded generator that gives the same sequence on every platform, for deterministic
/// benchmark scenes and randomized tests (the standard library's generator is not seedable).
public struct SplitMix64: RandomNumberGenerator, Sendable {
  /// The generator's state (advanced by the golden-ratio increment each call).
  public var state: UInt64

  /// Creates a generator whose sequence is fixed by `seed`.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
