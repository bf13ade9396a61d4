import ARMath

/// Functions written with IEEE 754 basic operations only (+ − × ÷ √, exact scaling by powers
/// of two), so that their results do not depend on the platform's math library: the tracking
/// error's bytes are the same on every machine.
public enum PortableMath {
  /// The natural logarithm of a finite `x` > 0 (relative error below 1e-15): x = m · 2^e with
  /// m in [√½, √2), ln x = e · ln 2 + 2 · atanh((m − 1)/(m + 1)), the series summed to s²¹.
  public static func log(_ x: Double) -> Double {
    precondition(x > 0 && x.isFinite, "log of \(x)")
    var exponent = Double(x.exponent)
    var m = x.significand  // [1, 2)
    if m > 1.414_213_562_373_095_1 {
      m /= 2
      exponent += 1
    }
    let s = (m - 1) / (m + 1)
    let s2 = s * s
    var term = s
    var sum = 0.0
    var k = 1.0
    while k <= 23 {
      sum += term / k
      term *= s2
      k += 2
    }
    return exponent * 0.693_147_180_559_945_3 + 2 * sum
  }

  /// The rotation by the rotation vector `w` (axis · angle, radians), angles up to π: the unit
  /// quaternion (sin(θ/2) · w/θ, cos(θ/2)) with sine and cosine from their Taylor series.
  public static func rotation(vector w: Vector3) -> Quaternion {
    let half2 = (w.x * w.x + w.y * w.y + w.z * w.z) / 4  // (θ/2)²
    // sin(h)/h and cos(h) for h = θ/2 ≤ π/2, to h^18 (error below 1e-13).
    var sinc = 0.0
    var cosine = 0.0
    var term = 1.0
    var n = 0.0
    for _ in 0..<10 {
      cosine += term
      sinc += term / (n + 1)
      term *= -half2 / ((n + 1) * (n + 2))
      n += 2
    }
    // sinc's terms: h^(2i) / (2i + 1)!, built from cos's h^(2i)/(2i)! divided by 2i + 1.
    let q = Quaternion(x: w.x / 2 * sinc, y: w.y / 2 * sinc, z: w.z / 2 * sinc, w: cosine)
    return q.normalized ?? .identity
  }
}
