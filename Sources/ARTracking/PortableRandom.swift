import ARMath

/// xoshiro256** (Blackman and Vigna, "Scrambled linear pseudorandom number generators", 2018;
/// reference code at prng.di.unimi.it), seeded as its authors advise: four outputs of
/// SplitMix64 from the seed. Integer operations only, so the sequence is the same on every
/// machine and compiler.
public struct Xoshiro256StarStar: RandomNumberGenerator, Hashable, Sendable {
  private var s0: UInt64
  private var s1: UInt64
  private var s2: UInt64
  private var s3: UInt64

  /// A generator whose sequence is fixed by `seed`.
  public init(seed: UInt64) {
    var mix = SplitMix64(seed: seed)
    s0 = mix.next()
    s1 = mix.next()
    s2 = mix.next()
    s3 = mix.next()
  }

  /// A generator with the given state words (not all zero), as the reference code's `s[4]`.
  public init(state: (UInt64, UInt64, UInt64, UInt64)) {
    (s0, s1, s2, s3) = state
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    let result = rotateLeft(s1 &* 5, 7) &* 9
    let t = s1 << 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = rotateLeft(s3, 45)
    return result
  }

  /// A uniform value in [0, 1): the top 53 bits, exactly representable.
  public mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1p-53 }

  /// A standard normal value (mean 0, σ 1) by Marsaglia's polar form of the Box–Muller
  /// transform (Marsaglia and Bray, 1964), which needs no sine or cosine: pairs (u, v) uniform
  /// in (−1, 1)² are drawn until 0 < s = u² + v² < 1, then u·√(−2 ln s / s) is returned and
  /// the second value, v·√(−2 ln s / s), kept for the next call. The logarithm is
  /// `PortableMath.log`, so the values are the same on every IEEE 754 machine.
  public mutating func nextGaussian(spare: inout Double?) -> Double {
    if let value = spare {
      spare = nil
      return value
    }
    while true {
      let u = 2 * nextUnit() - 1
      let v = 2 * nextUnit() - 1
      let s = u * u + v * v
      guard s > 0, s < 1 else { continue }
      let factor = (-2 * PortableMath.log(s) / s).squareRoot()
      spare = v * factor
      return u * factor
    }
  }

  private func rotateLeft(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
}

/// A seeded stream of normal values: the generator and the polar method's spare value.
public struct GaussianStream: Hashable, Sendable {
  private var generator: Xoshiro256StarStar
  private var spare: Double?

  /// A stream fixed by `seed`.
  public init(seed: UInt64) { generator = Xoshiro256StarStar(seed: seed) }

  /// The next standard normal value.
  public mutating func next() -> Double { generator.nextGaussian(spare: &spare) }

  /// Three independent standard normal values.
  public mutating func nextVector() -> Vector3 {
    let x = next()
    let y = next()
    return Vector3(x, y, next())
  }

  /// A uniform value in [0, 1).
  public mutating func nextUnit() -> Double { generator.nextUnit() }
}
