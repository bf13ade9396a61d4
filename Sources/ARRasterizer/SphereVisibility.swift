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
    let dx = grid.rayX(lanesFrom: sx)
    let crossY = -s.cx - dx * s.cz
    let crossZ = dx * s.cy - dyCx
    let lengthSquared = dx * dx + rowLengthSquared
    let discriminant =
      s.radiusSquaredFloat * lengthSquared
      - (crossXSquared + crossY * crossY + crossZ * crossZ)
    let hit = discriminant .> 0
    guard hit.anyLane() else { return FloatLanes(repeating: .infinity) }
    // |D| (lanes that miss are discarded) lets the compiler drop libm's errno fallback.
    let root = discriminant.magnitude.squareRoot()
    var t = select(
      hit, (dx * s.cx + rowDot - root) / lengthSquared, FloatLanes(repeating: .infinity))
    if (t .< s.nearBound).anyLane() { clip(&t, s, sx: sx, grid: grid, primitive: primitive) }
    return select(t .<= s.farBound, t, FloatLanes(repeating: .infinity))
  }

  /// Replaces the lanes of `t` before the near plane by the Double quadratic's depth. Out of
  /// line (rare, and it keeps `depths` small enough to inline); `t` goes by address, as a
  /// vector passed by value would be split into halves, and so would the caller's arithmetic.
  @inline(never) func clip(
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

  /// The constants of `sphere` (`inverseRadius > 0`; others give meaningless values).
  init(_ sphere: SpherePrimitive, intrinsics: CameraIntrinsics, near: Double, far: Double) {
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
  /// constants stay in registers from row to row.
  func rasterizeUniformSphere(
    _ uniform: UniformSphere, sphere: SpherePrimitive, id: Int32, grid: SampleGrid,
    into buffers: SampleBuffers, wins: (Float, Int) -> Bool
  ) {
    let rows = grid.rows(minV: sphere.minV, maxV: sphere.maxV)
    guard uniform.spanA < 0 else {
      // The span is unbounded (the camera near the sphere): row by row.
      for sy in rows {
        let row = UniformSphereRow(uniform, v: grid.v(sy), dy: grid.rayY(sy))
        guard let (low, high) = row.span(uniform, margin: 1) else { continue }
        let columns = grid.columns(minU: max(low, sphere.minU), maxU: min(high, sphere.maxU))
        rasterizeUniformSphereRow(
          row, of: uniform, sphere: sphere, id: id, sy: sy, columns: columns, grid: grid,
          into: buffers, wins: wins)
      }
      return
    }
    // The spans of eight rows at a time (`UniformSphereRow.spans`), the same operations lane
    // by lane as `span` and `SampleGrid.columns`, so the same columns.
    var first = rows.lowerBound
    while first < rows.upperBound {
      let count = min(8, rows.upperBound - first)
      var v = SIMD8<Double>()
      var dy = SIMD8<Double>()
      for lane in 0..<8 {
        // Lanes past the rows repeat the last one (and are not drawn).
        let sy = first + min(lane, count - 1)
        v[lane] = grid.v(sy)
        dy[lane] = grid.rayY(sy)
      }
      let (hit, low, high) = UniformSphereRow.spans(uniform, dy: dy, margin: 1)
      let n = Double(grid.scale)
      let minU = SIMD8(repeating: sphere.minU)
      let maxU = SIMD8(repeating: sphere.maxU)
      let lowColumns = rounded((select(low .< minU, minU, low) + 0.5) * n - 0.5, .up)
      let highColumns = rounded((select(high .> maxU, maxU, high) + 0.5) * n - 0.5, .down)
      let lastColumn = SIMD8(repeating: Double(grid.columns - 1))
      let drawn =
        hit .& (lowColumns .<= highColumns) .& (highColumns .>= 0)
        .& (lowColumns .< Double(grid.columns))
      let firstColumns = select(lowColumns .< 0, .zero, lowColumns)
      let lastColumns = select(highColumns .> lastColumn, lastColumn, highColumns)
      for lane in 0..<count where drawn[lane] {
        let columns = Int(firstColumns[lane])..<Int(lastColumns[lane]) + 1
        let row = UniformSphereRow(uniform, v: v[lane], dy: dy[lane])
        rasterizeUniformSphereRow(
          row, of: uniform, sphere: sphere, id: id, sy: first + lane, columns: columns,
          grid: grid, into: buffers, wins: wins)
      }
      first += 8
    }
  }

  /// Opaque visibility of sample row `sy` for a uniform-scale sphere (`UniformSphereRow`):
  /// writes depth and `id` where the sphere's depth `wins`.
  @inline(__always) func rasterizeUniformSphereRow(
    _ row: UniformSphereRow, of uniform: UniformSphere, sphere: SpherePrimitive, id: Int32, sy: Int,
    columns: Range<Int>,
    grid: SampleGrid, into buffers: SampleBuffers, wins: (Float, Int) -> Bool
  ) {
    let rowBase = (sy - grid.firstRow) * grid.columns
    // t ≥ minDepth (less Float's error): nothing nearer can be replaced.
    let minDepth = Float(sphere.minDepth * (1 - 1e-5))
    guard let depths = buffers.depths.baseAddress, let ids = buffers.ids.baseAddress else { return }
    var sx = columns.lowerBound
    while sx < columns.upperBound {
      let count = columns.upperBound - sx
      let i = rowBase + sx
      // Whole vectors even at the row's end (the buffers are padded, `BandRenderer`): lanes past
      // the row hold −∞, which nothing beats, and are written back unchanged. The band's
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
      let t = row.depths(uniform, lanesFrom: sx, grid: grid, primitive: sphere)
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
            of: select(
              candidates, IntLanes(repeating: id), raw.loadUnaligned(as: IntLanes.self)),
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
}
