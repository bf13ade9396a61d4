// Lane helpers for the rasterizer's vector loops. The standard library's generic SIMD
// `replacing(with:where:)` and Float/Double conversions compile here to lane-by-lane loops
// through the stack or to out-of-line calls; these spell the same results so that they compile
// to a few vector instructions.

/// `mask ? a : b` lane by lane, for any lane types (a Double comparison may pick Float or
/// integer lanes). Spelled per lane, which the optimizer folds into one vector select.
@inline(__always) func select<Mask: SIMDScalar & FixedWidthInteger & SignedInteger, Lane>(
  _ mask: SIMDMask<SIMD8<Mask>>, _ a: SIMD8<Lane>, _ b: SIMD8<Lane>
) -> SIMD8<Lane> {
  SIMD8(
    mask[0] ? a[0] : b[0], mask[1] ? a[1] : b[1], mask[2] ? a[2] : b[2], mask[3] ? a[3] : b[3],
    mask[4] ? a[4] : b[4], mask[5] ? a[5] : b[5], mask[6] ? a[6] : b[6], mask[7] ? a[7] : b[7])
}

/// `mask ? a : b` lane by lane.
@inline(__always) func select<Mask: SIMDScalar & FixedWidthInteger & SignedInteger, Lane>(
  _ mask: SIMDMask<SIMD4<Mask>>, _ a: SIMD4<Lane>, _ b: SIMD4<Lane>
) -> SIMD4<Lane> {
  SIMD4(mask[0] ? a[0] : b[0], mask[1] ? a[1] : b[1], mask[2] ? a[2] : b[2], mask[3] ? a[3] : b[3])
}

extension SIMDMask {
  /// Whether any of eight lanes is set: ORs of the lanes' storage (`_storage`, the mask's
  /// public vector of 0 and −1 lanes), where the standard library's `any` is an out-of-line
  /// `min()` reduction here.
  @inline(__always) func anyLane<Lane>() -> Bool where Storage == SIMD8<Lane> {
    let quarter = _storage.lowHalf | _storage.highHalf
    let pair = quarter.lowHalf | quarter.highHalf
    return pair[0] | pair[1] != 0
  }
}

extension SIMD8 where Scalar == Float {
  /// The lanes with these bit patterns.
  @inline(__always) init(bitPattern: SIMD8<UInt32>) {
    self = unsafeBitCast(bitPattern, to: SIMD8<Float>.self)
  }

  /// The lanes' bit patterns.
  @inline(__always) var bitPattern: SIMD8<UInt32> { unsafeBitCast(self, to: SIMD8<UInt32>.self) }

  /// Each lane rounded to the nearest Float.
  @inline(__always) init(narrowing x: SIMD8<Double>) {
    self.init(
      Float(x[0]), Float(x[1]), Float(x[2]), Float(x[3]), Float(x[4]), Float(x[5]),
      Float(x[6]), Float(x[7]))
  }

  /// |x| lane by lane (clears the sign bits).
  @inline(__always) var magnitude: SIMD8<Float> {
    SIMD8(bitPattern: bitPattern & 0x7FFF_FFFF)
  }
}
