/// Deterministic pseudo-random numbers addressed by a key rather than drawn from a stream: the
/// value for (seed, link, message number, attempt, purpose) never depends on what else the run
/// drew, so adding a participant or a message does not reshuffle every other link.
///
/// Mixing: FNV-1a (64-bit) over the key's bytes, then SplitMix64's finalizer (Steele, Lea and
/// Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014).
public struct SeededDraws: Hashable, Sendable {
  /// The scene's seed.
  public var seed: UInt64

  /// Creates draws from a seed.
  public init(seed: UInt64) { self.seed = seed }

  /// A uniform value in [0, 1) (53 random bits) for the given key parts.
  public func unit(_ parts: [String], _ numbers: [UInt64]) -> Double {
    Double(bits(parts, numbers) >> 11) * 0x1p-53
  }

  /// 64 mixed bits for the given key parts.
  public func bits(_ parts: [String], _ numbers: [UInt64]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func add(_ byte: UInt8) {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    for byte in withUnsafeBytes(of: seed.littleEndian, Array.init) { add(byte) }
    for part in parts {
      for byte in part.utf8 { add(byte) }
      add(0xff)  // separator: not valid UTF-8, so ("ab","c") ≠ ("a","bc")
    }
    for number in numbers {
      for byte in withUnsafeBytes(of: number.littleEndian, Array.init) { add(byte) }
    }
    return Self.splitMix64Finalizer(hash)
  }

  /// SplitMix64's output function.
  static func splitMix64Finalizer(_ value: UInt64) -> UInt64 {
    var z = value &+ 0x9e37_79b9_7f4a_7c15
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }
}
