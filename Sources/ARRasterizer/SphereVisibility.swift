import ARScene

/// The ray–sphere depths of one sample row for a uniform-scale sphere (`inverseRadius > 0`),
/// `laneCount` samples at a time in Float.
///
/// In camera space, with centre c, radius r and the ray t·d, d = (dx, dy, −1), the ray meets
/// the sphere where |d|² t² − 2 (d·c) t + |c|² − r² = 0. Its discriminant, by Lagrange's
/// identity (d·c)² − |d|²|c|² = −|d × c|², is D = r² |d|² − |d × c|²: no term of metre size
/// cancels (each is of the size r²), so Float places the silhouette to about 10⁻⁶ px, where
/// the expanded quadratic in Float would lose it. The near root is t = (d·c − √D) / |d|², to a
/// relative 10⁻⁷ (0.1 µm at a metre) away from the silhouette; at grazing samples, where the
/// root itself is ill-conditioned, to about 10⁻⁵. A hit needs D > 0 (a sample exactly on the
/// silhouette is not covered, as in `SphereRow`). Samples whose near root lies before `near`
/// (the camera inside, or the sphere cut by the near plane) take the Double quadratic
/// (`SphereRow.depth`), which returns the far root there.
///
/// Opaque visibility and the translucent pass both use it, so a translucent sphere that
/// coincides with an opaque one gets the same depth bits (and does not show through). Every
/// lane's value depends only on its own sample.
///
/// The row holds only its own values; the sphere's (`UniformSphere`) are passed to each call,
/// so building a row copies nothing of the sphere.
struct UniformSphereRow {
  /// Screen v of the row, and the ray's dy there.
  let v: Double
  let dy: Double
  let crossX: Float
  let crossXSquared: Float
  let dyCx: Float
  let rowLengthSquared: Float
  let rowDot: Float

  /// The row at screen v, whose ray y is `dy` (`SampleGrid.rayY`).
  @inline(__always) init(_ sphere: UniformSphere, v: Double, dy: Double) {
    self.v = v
    self.dy = dy
    let c = sphere.centre
    // Row constants: (d × c).x = dy·c.z + c.y, (d × c).y = −c.x − dx·c.z,
    // (d × c).z = dx·c.y − dy·c.x, |d|² = dx² + dy² + 1, d·c = dx·c.x + dy·c.y − c.z.
    crossX = Float(dy * c.z + c.y)
    crossXSquared = crossX * crossX
    dyCx = Float(dy * c.x)
    rowLengthSquared = Float(dy * dy + 1)
    rowDot = Float(dy * c.y - c.z)
  }

  /// The screen u range where the row can hit the sphere, widened by `margin` pixels; `nil`
  /// when it misses, infinite ends when it is unbounded.
  ///
  /// In Double, D(dx) = r²(dx² + dy² + 1) − (dy·c.z + c.y)² − (c.x + dx·c.z)² − (dx·c.y −
  /// dy·c.x)² = A dx² + B dx + C, a quadratic whose roots bound the hits; the margin absorbs the
  /// Float evaluation's error (10⁻⁶ px).
  @inline(__always) func span(_ sphere: UniformSphere, margin: Double) -> (Double, Double)? {
    let c = sphere.centre
    let crossX = dy * c.z + c.y
    let dyCx = dy * c.x
    let a = sphere.spanA
    guard a < 0 else { return (-.infinity, .infinity) }
    let b = 2 * (c.y * dyCx - c.x * c.z)
    let constant =
      sphere.radiusSquared * (dy * dy + 1) - crossX * crossX - c.x * c.x - dyCx * dyCx
    let discriminant = b * b - 4 * a * constant
    guard discriminant > 0 else { return nil }
    let root = discriminant.squareRoot()
    // a < 0: (−b + root) / 2a is the smaller root.
    let low = (-b + root) * sphere.halfInverseA
    let high = (-b - root) * sphere.halfInverseA
    let k = sphere.intrinsics
    return (k.cx + low * k.fx - margin, k.cx + high * k.fx + margin)
  }

  /// `span` of eight rows at once (rows whose ray y is `dy`), for a sphere whose span is
  /// bounded (`spanA < 0`): lane by lane the same operations, so the same bits. Lanes where
  /// `hit` is false miss the sphere (their `low`, `high` are meaningless).
  @inline(__always) static func spans(_ sphere: UniformSphere, dy: SIMD8<Double>, margin: Double)
    -> (hit: SIMDMask<SIMD8<Int64>>, low: SIMD8<Double>, high: SIMD8<Double>)
  {
    let c = sphere.centre
    let crossX = dy * c.z + c.y
    let dyCx = dy * c.x
    let a = sphere.spanA
    let b = 2 * (c.y * dyCx - c.x * c.z)
    let constant =
      sphere.radiusSquared * (dy * dy + 1) - crossX * crossX - c.x * c.x - dyCx * dyCx
    let discriminant = b * b - 4 * a * constant
    let hit = discriminant .> 0
    // |D| (lanes that miss are discarded) lets the compiler drop libm's errno fallback.
    let root = discriminant.magnitude.squareRoot()
    let low = (-b + root) * sphere.halfInverseA
    let high = (-b - root) * sphere.halfInverseA
    let k = sphere.intrinsics
    return (hit, k.cx + low * k.fx - margin, k.cx + high * k.fx + margin)
  }

  /// The depths (metres along −Z) at sample columns `sx ..< sx + laneCount` of `grid`: the first
  /// surface at or beyond `near` and not beyond `far`, +∞ where there is none. `primitive` is
  /// the sphere's `SpherePrimitive`, for samples before the near plane.
  @_transparent func depths(
    _ s: UniformSphere, lanesFrom sx: Int, grid: SampleGrid, primitive: SpherePrimitive
  ) -> FloatLanes {
    depths(
      UniformSphereRowLanes(self, of: s), grid.rayX(lanesFrom: sx), s, lanesFrom: sx,
      grid: grid, primitive: primitive)
  }

  /// `depths(_:lanesFrom:grid:primitive:)` with the row's constants already in vectors
  /// (`lanes`) and the ray's x at the columns, `dx`: a loop over a row keeps them in
  /// registers, where reading them through the structs each step (which the buffer stores
  /// might alias, as far as the compiler knows) loaded and broadcast each again.
  @_transparent func depths(
    _ lanes: UniformSphereRowLanes, _ dx: FloatLanes, _ s: UniformSphere, lanesFrom sx: Int,
    grid: SampleGrid, primitive: SpherePrimitive
  ) -> FloatLanes {
    let crossY = lanes.negativeCx - dx * lanes.cz
    let crossZ = dx * lanes.cy - lanes.dyCx
    let lengthSquared = dx * dx + lanes.rowLengthSquared
    let discriminant =
      lanes.radiusSquared * lengthSquared
      - (lanes.crossXSquared + crossY * crossY + crossZ * crossZ)
    let hit = discriminant .> 0
    guard hit.anyLane() else { return FloatLanes(repeating: .infinity) }
    // |D| (lanes that miss are discarded) lets the compiler drop libm's errno fallback.
    let root = discriminant.magnitude.squareRoot()
    var t = select(
      hit, (dx * lanes.cx + lanes.rowDot - root) / lengthSquared,
      FloatLanes(repeating: .infinity))
    if (t .< lanes.nearBound).anyLane() { clip(&t, s, sx: sx, grid: grid, primitive: primitive) }
    return select(t .<= lanes.farBound, t, FloatLanes(repeating: .infinity))
  }

  /// Replaces the lanes of `t` before the near plane by the Double quadratic's depth
  /// (`SphereRow.depths`, lane by lane the operations of `SphereRow.depth`, so the same bits
  /// as `clipReference`). Out of line (only where a sphere reaches the near plane, and it keeps
  /// `depths` small enough to inline); `t` goes by address, as a vector passed by value would
  /// be split into halves, and so would the caller's arithmetic.
  @inline(never) func clip(
    _ t: inout FloatLanes, _ sphere: UniformSphere, sx: Int, grid: SampleGrid,
    primitive: SpherePrimitive
  ) {
    guard !sphere.referenceClip else {
      clipReference(&t, sphere, sx: sx, grid: grid, primitive: primitive)
      return
    }
    let depths = primitive.row(v: v).depths(
      u: grid.u(lanesFrom: sx), near: sphere.near, far: sphere.far)
    t = select(t .< sphere.nearBound, FloatLanes(narrowing: depths), t)
  }

  /// `clip` one sample at a time with `SphereRow.depth`: the reference its lanes must match
  /// bit for bit (`UniformSphere.referenceClip`, tests).
  func clipReference(
    _ t: inout FloatLanes, _ sphere: UniformSphere, sx: Int, grid: SampleGrid,
    primitive: SpherePrimitive
  ) {
    let quadratic = primitive.row(v: v)
    for lane in 0..<laneCount where t[lane] < sphere.nearBound {
      t[lane] = Float(
        quadratic.depth(u: grid.u(sx + lane), near: sphere.near, far: sphere.far) ?? .infinity)
    }
  }
}

/// The constants of `UniformSphereRow.depths` for one row, each in all lanes (the same values
/// the scalar forms give: `−c.x − dx·c.z` is `negativeCx − dx·cz` lane by lane).
struct UniformSphereRowLanes {
  let negativeCx: FloatLanes
  let cx: FloatLanes
  let cy: FloatLanes
  let cz: FloatLanes
  let dyCx: FloatLanes
  let rowLengthSquared: FloatLanes
  let radiusSquared: FloatLanes
  let crossXSquared: FloatLanes
  let rowDot: FloatLanes
  let nearBound: FloatLanes
  let farBound: FloatLanes

  @inline(__always) init(_ row: UniformSphereRow, of s: UniformSphere) {
    negativeCx = FloatLanes(repeating: -s.cx)
    cx = FloatLanes(repeating: s.cx)
    cy = FloatLanes(repeating: s.cy)
    cz = FloatLanes(repeating: s.cz)
    dyCx = FloatLanes(repeating: row.dyCx)
    rowLengthSquared = FloatLanes(repeating: row.rowLengthSquared)
    radiusSquared = FloatLanes(repeating: s.radiusSquaredFloat)
    crossXSquared = FloatLanes(repeating: row.crossXSquared)
    rowDot = FloatLanes(repeating: row.rowDot)
    nearBound = FloatLanes(repeating: s.nearBound)
    farBound = FloatLanes(repeating: s.farBound)
  }
}

/// A uniform-scale sphere's camera-space constants for `UniformSphereRow`, prepared once per
/// frame.
struct UniformSphere: Sendable {
  let intrinsics: CameraIntrinsics
  let centre: SIMD3<Double>
  let radiusSquared: Double
  /// The span quadratic's dx² coefficient r² − c.y² − c.z², and 1 / (2 · it).
  let spanA: Double
  let halfInverseA: Double
  let radiusSquaredFloat: Float
  let cx: Float
  let cy: Float
  let cz: Float
  let near: Double
  let far: Double
  /// The Float bounds equivalent to `near` and `far`: for any Float t, t < nearBound ⇔ t < near
  /// and t ≤ farBound ⇔ t ≤ far.
  let nearBound: Float
  let farBound: Float
  /// Whether `UniformSphereRow.clip` takes its one-sample reference (`clipReference`, tests).
  let referenceClip: Bool

  /// The constants of `sphere` (`inverseRadius > 0`; others give meaningless values).
  init(
    _ sphere: SpherePrimitive, intrinsics: CameraIntrinsics, near: Double, far: Double,
    referenceClip: Bool = false
  ) {
    self.referenceClip = referenceClip
    self.intrinsics = intrinsics
    let c = sphere.centre
    centre = c
    let radius = 1 / sphere.inverseRadius
    radiusSquared = radius * radius
    spanA = radiusSquared - c.y * c.y - c.z * c.z
    halfInverseA = 1 / (2 * spanA)
    radiusSquaredFloat = Float(radius * radius)
    (cx, cy, cz) = (Float(c.x), Float(c.y), Float(c.z))
    self.near = near
    self.far = far
    var nearBound = Float(near)
    if Double(nearBound) < near { nearBound = nearBound.nextUp }
    var farBound = Float(far)
    if Double(farBound) > far { farBound = farBound.nextDown }
    self.nearBound = nearBound
    self.farBound = farBound
  }
}

extension PreparedFrame {
  /// Opaque visibility of a uniform-scale sphere over the sample rows of `grid`: writes depth
  /// and `id` where the sphere's depth `wins`. One call per sphere and band, so the sphere's
  /// constants stay in registers from row to row (the row loop is inlined here: as a function
  /// of its own it was called per row, with a dozen constants broadcast again each time).
  func rasterizeUniformSphere(
    _ uniform: UniformSphere, sphere: SpherePrimitive, id: Int32, grid: SampleGrid,
    into buffers: SampleBuffers, wins: (Float, Int) -> Bool
  ) {
    let rows = grid.rows(minV: sphere.minV, maxV: sphere.maxV)
    guard !rows.isEmpty, let depths = buffers.depths.baseAddress,
      let ids = buffers.ids.baseAddress, let rayX = grid.rayX.baseAddress
    else { return }
    // t ≥ minDepth (less Float's error): nothing nearer can be replaced.
    let minDepth = Float(sphere.minDepth * (1 - 1e-5))
    let idLanes = IntLanes(repeating: id)
    /// Sample row `sy`'s columns `columns` (`UniformSphereRow`).
    @inline(__always) func drawRow(_ row: UniformSphereRow, sy: Int, columns: Range<Int>) {
      let rowBase = (sy - grid.firstRow) * grid.columns
      let constants = UniformSphereRowLanes(row, of: uniform)
      var sx = columns.lowerBound
      while sx < columns.upperBound {
        let count = columns.upperBound - sx
        let i = rowBase + sx
        // Whole vectors even at the row's end (the buffers are padded, `BandRenderer`): lanes
        // past the row hold −∞, which nothing beats, and are written back unchanged. The band's
        // buffers are its own thread's.
        let stored = UnsafeRawPointer(depths + i).loadUnaligned(as: FloatLanes.self)
        let current =
          count >= laneCount
          ? stored
          : select(
            FloatLanes.laneIndices .< Float(count), stored, FloatLanes(repeating: -.infinity))
        guard (current .>= minDepth).anyLane() else {
          sx += laneCount
          continue
        }
        let t = row.depths(
          constants, UnsafeRawPointer(rayX + sx).loadUnaligned(as: FloatLanes.self), uniform,
          lanesFrom: sx, grid: grid, primitive: sphere)
        // Misses (+∞) are never candidates, also over empty samples (+∞).
        let hits = t .< .infinity
        let candidates = (t .<= current) .& hits
        if !((t .== current) .& hits).anyLane() {
          // No ties: a candidate wins outright. Whole-vector stores.
          if candidates.anyLane() {
            UnsafeMutableRawPointer(depths + i).storeBytes(
              of: select(candidates, t, stored), as: FloatLanes.self)
            let raw = UnsafeMutableRawPointer(ids + i)
            raw.storeBytes(
              of: select(candidates, idLanes, raw.loadUnaligned(as: IntLanes.self)),
              as: IntLanes.self)
          }
        } else {
          for lane in 0..<min(count, laneCount) where candidates[lane] && wins(t[lane], i + lane) {
            depths[i + lane] = t[lane]
            ids[i + lane] = id
          }
        }
        sx += laneCount
      }
    }
    // Eight rows at a time: their columns (`UniformSphereRow.spans` for a bounded span, the
    // same operations lane by lane as `span` and `SampleGrid.columns`, so the same columns), v
    // and ray y go to memory once, as whole vectors, and the rows read them from there
    // (reading a vector's lane by a variable index stored the whole vector each time). One
    // call site of `drawRow`, so that it is inlined.
    let n = Double(grid.scale)
    let minU = SIMD8(repeating: sphere.minU)
    let maxU = SIMD8(repeating: sphere.maxU)
    let lastColumn = SIMD8(repeating: Double(grid.columns - 1))
    let columnCount = Double(grid.columns)
    let bounded = uniform.spanA < 0
    // Bytes 0…63: the rows' v, 64…127: their ray y, 128…191 and 192…255: first and end
    // columns (16-byte alignment keeps the buffer on the stack).
    withUnsafeTemporaryAllocation(byteCount: 256, alignment: 16) { batch in
      guard let lanes = batch.baseAddress else { return }
      var first = rows.lowerBound
      while first < rows.upperBound {
        let count = min(8, rows.upperBound - first)
        // Lanes past the rows repeat the last one (and are not drawn).
        for lane in 0..<8 {
          let sy = first + min(lane, count - 1)
          lanes.storeBytes(of: grid.v(sy), toByteOffset: 8 * lane, as: Double.self)
          lanes.storeBytes(of: grid.rayY(sy), toByteOffset: 64 + 8 * lane, as: Double.self)
        }
        if bounded {
          let dy = (lanes + 64).loadUnaligned(as: SIMD8<Double>.self)
          let (hit, low, high) = UniformSphereRow.spans(uniform, dy: dy, margin: 1)
          let lowColumns = rounded((select(low .< minU, minU, low) + 0.5) * n - 0.5, .up)
          let highColumns = rounded((select(high .> maxU, maxU, high) + 0.5) * n - 0.5, .down)
          let drawn =
            hit .& (lowColumns .<= highColumns) .& (highColumns .>= 0)
            .& (lowColumns .< columnCount)
          let firstColumns = select(lowColumns .< 0, .zero, lowColumns)
          let lastColumns = select(highColumns .> lastColumn, lastColumn, highColumns)
          // Whole numbers in 0 … columns: + 2⁵² puts each in its Double's low mantissa bits.
          // Rows not drawn get the empty range 0 ..< 0.
          let bias = SIMD8<Double>(repeating: 0x1p52)
          let biasBits = SIMD8<UInt64>(repeating: 0x4330_0000_0000_0000)
          let startBits =
            unsafeBitCast(select(drawn, firstColumns, .zero) + bias, to: SIMD8<UInt64>.self)
            &- biasBits
          let endBits =
            unsafeBitCast(select(drawn, lastColumns + 1, .zero) + bias, to: SIMD8<UInt64>.self)
            &- biasBits
          (lanes + 128).storeBytes(of: startBits, as: SIMD8<UInt64>.self)
          (lanes + 192).storeBytes(of: endBits, as: SIMD8<UInt64>.self)
        } else {
          // The span is unbounded (the camera near the sphere): row by row.
          for lane in 0..<count {
            let row = UniformSphereRow(
              uniform, v: lanes.load(fromByteOffset: 8 * lane, as: Double.self),
              dy: lanes.load(fromByteOffset: 64 + 8 * lane, as: Double.self))
            var columns = 0..<0
            if let (low, high) = row.span(uniform, margin: 1) {
              columns = grid.columns(minU: max(low, sphere.minU), maxU: min(high, sphere.maxU))
            }
            lanes.storeBytes(
              of: UInt64(columns.lowerBound), toByteOffset: 128 + 8 * lane, as: UInt64.self)
            lanes.storeBytes(
              of: UInt64(columns.upperBound), toByteOffset: 192 + 8 * lane, as: UInt64.self)
          }
        }
        for lane in 0..<count {
          let start = Int(
            truncatingIfNeeded: lanes.load(fromByteOffset: 128 + 8 * lane, as: UInt64.self))
          let end = Int(
            truncatingIfNeeded: lanes.load(fromByteOffset: 192 + 8 * lane, as: UInt64.self))
          guard start < end else { continue }
          let row = UniformSphereRow(
            uniform, v: lanes.load(fromByteOffset: 8 * lane, as: Double.self),
            dy: lanes.load(fromByteOffset: 64 + 8 * lane, as: Double.self))
          drawRow(row, sy: first + lane, columns: start..<end)
        }
        first += 8
      }
    }
  }
}
