// Lane helpers for the rasterizer's vector loops. The standard library's generic SIMD
// `replacing(with:where:)` and Float/Double conversions compile here to lane-by-lane loops
// through the stack or to out-of-line calls; these spell the same results so that they compile
// to a few vector instructions.

#if ARSIM_RASTERIZER_AVX512
  /// The samples one step of a vector loop works on: sixteen in the AVX-512 build, one 512-bit
  /// register (AMD Zen 5 and Intel's server cores execute them at full width, twice the work of
  /// a 256-bit instruction), eight elsewhere. Every lane's value depends only on its own sample,
  /// so the width changes no output bit (`Scripts/check-builds`).
  typealias FloatLanes = SIMD16<Float>
  typealias IntLanes = SIMD16<Int32>
  typealias UInt32Lanes = SIMD16<UInt32>
  typealias DoubleLanes = SIMD16<Double>
#else
  typealias FloatLanes = SIMD8<Float>
  typealias IntLanes = SIMD8<Int32>
  typealias UInt32Lanes = SIMD8<UInt32>
  typealias DoubleLanes = SIMD8<Double>
#endif

/// Samples per vector step (`FloatLanes`): 8 or 16.
@inline(__always) var laneCount: Int { FloatLanes.scalarCount }

extension SIMD where Scalar: BinaryFloatingPoint {
  /// 0, 1, 2, … in lane order.
  @inline(__always) static var laneIndices: Self {
    var lanes = Self()
    for lane in 0..<scalarCount { lanes[lane] = Scalar(lane) }
    return lanes
  }
}

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

/// `mask ? a : b` lane by lane, sixteen lanes.
@inline(__always) func select<Mask: SIMDScalar & FixedWidthInteger & SignedInteger, Lane>(
  _ mask: SIMDMask<SIMD16<Mask>>, _ a: SIMD16<Lane>, _ b: SIMD16<Lane>
) -> SIMD16<Lane> {
  SIMD16(
    mask[0] ? a[0] : b[0], mask[1] ? a[1] : b[1], mask[2] ? a[2] : b[2], mask[3] ? a[3] : b[3],
    mask[4] ? a[4] : b[4], mask[5] ? a[5] : b[5], mask[6] ? a[6] : b[6], mask[7] ? a[7] : b[7],
    mask[8] ? a[8] : b[8], mask[9] ? a[9] : b[9], mask[10] ? a[10] : b[10],
    mask[11] ? a[11] : b[11], mask[12] ? a[12] : b[12], mask[13] ? a[13] : b[13],
    mask[14] ? a[14] : b[14], mask[15] ? a[15] : b[15])
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

  /// Whether any of sixteen lanes is set.
  @inline(__always) func anyLane<Lane>() -> Bool where Storage == SIMD16<Lane> {
    SIMDMask<SIMD8<Lane>>(_storage.lowHalf | _storage.highHalf).anyLane()
  }
}

extension SIMDMask where Storage == IntLanes {
  /// The index of the first set lane (`laneCount` when none is), by halving: the smaller index
  /// of each pair of halves.
  @inline(__always) func firstLane() -> Int {
    var index = IntLanes()
    for lane in 0..<laneCount { index[lane] = Int32(lane) }
    let indices = select(self, index, IntLanes(repeating: Int32(laneCount)))
    #if ARSIM_RASTERIZER_AVX512
      let eight = pointwiseMin(indices.lowHalf, indices.highHalf)
    #else
      let eight = indices
    #endif
    let four = pointwiseMin(eight.lowHalf, eight.highHalf)
    let two = pointwiseMin(four.lowHalf, four.highHalf)
    return Int(Swift.min(two[0], two[1]))
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

extension SIMD16 where Scalar == Float {
  /// The lanes with these bit patterns.
  @inline(__always) init(bitPattern: SIMD16<UInt32>) {
    self = unsafeBitCast(bitPattern, to: SIMD16<Float>.self)
  }

  /// The lanes' bit patterns.
  @inline(__always) var bitPattern: SIMD16<UInt32> {
    unsafeBitCast(self, to: SIMD16<UInt32>.self)
  }

  /// Each lane rounded to the nearest Float.
  @inline(__always) init(narrowing x: SIMD16<Double>) {
    self.init(
      lowHalf: SIMD8(narrowing: x.lowHalf), highHalf: SIMD8(narrowing: x.highHalf))
  }

  /// |x| lane by lane (clears the sign bits).
  @inline(__always) var magnitude: SIMD16<Float> {
    SIMD16(bitPattern: bitPattern & 0x7FFF_FFFF)
  }
}

extension SIMD8 where Scalar == Double {
  /// |x| lane by lane (clears the sign bits).
  @inline(__always) var magnitude: SIMD8<Double> {
    unsafeBitCast(
      unsafeBitCast(self, to: SIMD8<UInt64>.self) & 0x7FFF_FFFF_FFFF_FFFF, to: SIMD8<Double>.self)
  }
}

extension SIMD16 where Scalar == Double {
  /// |x| lane by lane (clears the sign bits).
  @inline(__always) var magnitude: SIMD16<Double> {
    SIMD16(lowHalf: lowHalf.magnitude, highHalf: highHalf.magnitude)
  }

  /// Each lane exactly (every Float is a Double).
  @inline(__always) init(widening x: SIMD16<Float>) {
    self.init(lowHalf: SIMD8(widening: x.lowHalf), highHalf: SIMD8(widening: x.highHalf))
  }
}

extension SIMD8 where Scalar == Double {
  /// Each lane exactly (every Float is a Double).
  @inline(__always) init(widening x: SIMD8<Float>) {
    self.init(
      Double(x[0]), Double(x[1]), Double(x[2]), Double(x[3]), Double(x[4]), Double(x[5]),
      Double(x[6]), Double(x[7]))
  }
}
