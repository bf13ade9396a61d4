extension PreparedFrame {
  /// Visibility of sample row `sy` for a uniform-scale sphere (`inverseRadius > 0`), eight
  /// samples at a time in Float: writes depth and `id` where the sphere's depth `wins`.
  ///
  /// In camera space, with centre c, radius r and the ray t·d, d = (dx, dy, −1), the ray meets
  /// the sphere where |d|² t² − 2 (d·c) t + |c|² − r² = 0. Its discriminant, by Lagrange's
  /// identity (d·c)² − |d|²|c|² = −|d × c|², is D = r² |d|² − |d × c|²: no term of metre size
  /// cancels (each is of the size r²), so Float places the silhouette to about 10⁻⁶ px, where
  /// the expanded quadratic in Float would lose it. The near root is t = (d·c − √D) / |d|², to
  /// a relative 10⁻⁷ (0.1 µm at a metre). A hit needs D > 0 (a sample exactly on the
  /// silhouette is not covered, as in `SphereRow`). Lanes whose near root lies before `near`
  /// (the camera inside or the sphere cut by the near plane) take the Double path
  /// (`SphereRow.depth`), which returns the far root there.
  @inline(__always) func rasterizeUniformSphereRow(
    _ sphere: SpherePrimitive, id: Int32, sy: Int, columns: Range<Int>, grid: SampleGrid,
    into buffers: SampleBuffers, wins: (Double, Int) -> Bool
  ) {
    let c = sphere.centre
    let radius = 1 / sphere.inverseRadius
    let v = grid.v(sy)
    let dy = -(v - intrinsics.cy) / intrinsics.fy
    // Row constants: (d × c).x = dy·c.z + c.y, (d × c).y = −c.x − dx·c.z,
    // (d × c).z = dx·c.y − dy·c.x, |d|² = dx² + dy² + 1, d·c = dx·c.x + dy·c.y − c.z.
    let crossX = Float(dy * c.z + c.y)
    let crossXSquared = crossX * crossX
    let dyCx = Float(dy * c.x)
    let rowLengthSquared = Float(dy * dy + 1)
    let rowDot = Float(dy * c.y - c.z)
    let radiusSquared = Float(radius * radius)
    let (cx, cy, cz) = (Float(c.x), Float(c.y), Float(c.z))
    let inverseFx = 1 / intrinsics.fx
    let rowBase = (sy - grid.firstRow) * grid.columns
    let near = self.near
    let minDepth = sphere.minDepth * (1 - 1e-6)
    let far = self.far
    var sx = columns.lowerBound
    while sx < columns.upperBound {
      let count = min(8, columns.upperBound - sx)
      let i = rowBase + sx
      // Lanes past the run hold −∞, which nothing beats.
      var current = SIMD8<Double>(repeating: -.infinity)
      if count == 8, let depths = buffers.depths.baseAddress {
        current = UnsafeRawPointer(depths + i).loadUnaligned(as: SIMD8<Double>.self)
      } else {
        for lane in 0..<count { current[lane] = buffers.depths[i + lane] }
      }
      // t ≥ minDepth (less Float's relative 10⁻⁷): nothing nearer can be replaced.
      guard (current .>= minDepth).anyLane() else {
        sx += 8
        continue
      }
      let u = grid.u(eightFrom: sx)
      let dx = SIMD8<Float>(narrowing: (u - intrinsics.cx) * inverseFx)
      let crossY = -cx - dx * cz
      let crossZ = dx * cy - dyCx
      let lengthSquared = dx * dx + rowLengthSquared
      let discriminant =
        radiusSquared * lengthSquared - (crossXSquared + crossY * crossY + crossZ * crossZ)
      let hit = discriminant .> 0
      guard hit.anyLane() else {
        sx += 8
        continue
      }
      // |D| (lanes that miss are discarded) lets the compiler drop libm's errno fallback.
      let root = discriminant.magnitude.squareRoot()
      let nearHit = select(
        hit, (dx * cx + rowDot - root) / lengthSquared, SIMD8(repeating: .infinity))
      let t = SIMD8<Double>(widening: nearHit)
      if (t .< near).anyLane() {
        // Clipped by the near plane: the Double path, lane by lane.
        let quadratic = sphere.row(v: v)
        for lane in 0..<count where hit[lane] {
          guard let depth = quadratic.depth(u: u[lane], near: near, far: far),
            wins(depth, i + lane)
          else { continue }
          buffers.depths[i + lane] = depth
          buffers.ids[i + lane] = id
        }
      } else {
        // Lanes past the run hold −∞: never candidates.
        let candidates = (t .<= current) .& (t .<= far)
        if count == 8, !(t .== current).anyLane(), let depths = buffers.depths.baseAddress,
          let ids = buffers.ids.baseAddress
        {
          // No ties: a candidate wins outright. Whole-vector stores.
          if candidates.anyLane() {
            UnsafeMutableRawPointer(depths + i).storeBytes(
              of: select(candidates, t, current), as: SIMD8<Double>.self)
            let raw = UnsafeMutableRawPointer(ids + i)
            raw.storeBytes(
              of: select(
                candidates, SIMD8(repeating: id), raw.loadUnaligned(as: SIMD8<Int32>.self)),
              as: SIMD8<Int32>.self)
          }
        } else if candidates.anyLane() {
          for lane in 0..<count where t[lane] <= far && wins(t[lane], i + lane) {
            buffers.depths[i + lane] = t[lane]
            buffers.ids[i + lane] = id
          }
        }
      }
      sx += 8
    }
  }
}
