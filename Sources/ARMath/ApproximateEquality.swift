/// Approximate equality with an absolute tolerance.
///
/// `a ≈ b` when every component satisfies `|aᵢ − bᵢ| ≤ absoluteTolerance`. The default
/// tolerance is 1e-9 (metres or radians, well above Double rounding for values near 1 and far
/// below anything ARSim measures). Not transitive: a ≈ b and b ≈ c do not imply a ≈ c. NaN is
/// never approximately equal to anything.
public protocol ApproximatelyEquatable {
  /// Whether `self` and `other` differ by at most `absoluteTolerance` in every component.
  func isApproximatelyEqual(to other: Self, absoluteTolerance: Double) -> Bool
}

extension ApproximatelyEquatable {
  /// Approximate equality with the default tolerance 1e-9.
  public func isApproximatelyEqual(to other: Self) -> Bool {
    isApproximatelyEqual(to: other, absoluteTolerance: 1e-9)
  }
}

extension Double: ApproximatelyEquatable {
  /// `|self − other| ≤ absoluteTolerance`.
  public func isApproximatelyEqual(to other: Double, absoluteTolerance: Double) -> Bool {
    abs(self - other) <= absoluteTolerance
  }
}

extension Vector3: ApproximatelyEquatable {
  /// Component-wise absolute tolerance.
  public func isApproximatelyEqual(to o: Vector3, absoluteTolerance t: Double) -> Bool {
    abs(x - o.x) <= t && abs(y - o.y) <= t && abs(z - o.z) <= t
  }
}

extension Matrix4: ApproximatelyEquatable {
  /// Element-wise absolute tolerance.
  public func isApproximatelyEqual(to o: Matrix4, absoluteTolerance t: Double) -> Bool {
    zip(columnMajorElements, o.columnMajorElements).allSatisfy { abs($0 - $1) <= t }
  }
}

extension Quaternion: ApproximatelyEquatable {
  /// Equal as rotations: q and −q are the same rotation, so the closer of the two is compared
  /// component-wise.
  public func isApproximatelyEqual(to o: Quaternion, absoluteTolerance t: Double) -> Bool {
    let s: Double = dot(o) < 0 ? -1 : 1
    return abs(x - s * o.x) <= t && abs(y - s * o.y) <= t && abs(z - s * o.z) <= t
      && abs(w - s * o.w) <= t
  }
}
