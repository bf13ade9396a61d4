#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A camera-space vector per lane: `laneCount` samples' normals, view vectors or colours.
struct Vector3Lanes {
  var x: DoubleLanes
  var y: DoubleLanes
  var z: DoubleLanes

  /// `v` in every lane.
  @inline(__always) init(repeating v: SIMD3<Double>) {
    x = DoubleLanes(repeating: v.x)
    y = DoubleLanes(repeating: v.y)
    z = DoubleLanes(repeating: v.z)
  }

  @inline(__always) init(x: DoubleLanes, y: DoubleLanes, z: DoubleLanes) {
    self.x = x
    self.y = y
    self.z = z
  }
}

// Translucent spheres, `laneCount` samples per step in Double: the scalar pass's operations
// lane by lane, in the same order and with the same rounding (Swift contracts no a · b + c
// into a fused multiply-add), so every sample gets the same bits as one at a time
// (`blendTranslucentSphereReference`, `TranslucentSphereTests`).
extension PreparedFrame {
  /// Blends the translucent sphere `entry` over the samples of `grid` that it covers in front
  /// of the opaque depth: `colour · (1 − α) + shaded · α`, shaded as `shade(id:…)` does.
  func blendTranslucentSphere(_ entry: DrawEntry, grid: SampleGrid, into buffers: SampleBuffers) {
    let sphere = spheres[entry.index]
    let material = materials[entry.material]
    for sy in grid.rows(minV: sphere.minV, maxV: sphere.maxV) {
      let v = grid.v(sy)
      let row = TranslucentSphereRow(
        sphere: sphere, material: material, v: v, rowBase: (sy - grid.firstRow) * grid.columns)
      @inline(__always) func columns(_ span: (Double, Double)) -> Range<Int> {
        grid.columns(minU: max(span.0, sphere.minU), maxU: min(span.1, sphere.maxU))
      }
      if sphere.inverseRadius > 0 {
        // The opaque pass's depths for uniform spheres (`UniformSphereRow`).
        let uniform = uniformSpheres[entry.index]
        let depths = UniformSphereRow(uniform, v: v, dy: grid.rayY(sy))
        guard let span = depths.span(uniform, margin: 1) else { continue }
        let columns = columns(span)
        var sx = columns.lowerBound
        while sx < columns.upperBound {
          blend(
            row, sx: sx, count: columns.upperBound - sx,
            depths: depths.depths(uniform, lanesFrom: sx, grid: grid, primitive: sphere),
            grid: grid, into: buffers)
          sx += laneCount
        }
      } else {
        let quadratic = sphere.row(v: v)
        guard let span = quadratic.span(margin: 1) else { continue }
        let columns = columns(span)
        var sx = columns.lowerBound
        while sx < columns.upperBound {
          let t = quadratic.depths(u: grid.u(lanesFrom: sx), near: near, far: far)
          blend(
            row, sx: sx, count: columns.upperBound - sx, depths: FloatLanes(narrowing: t),
            grid: grid, into: buffers)
          sx += laneCount
        }
      }
    }
  }

  /// Blends sample columns `sx ..< sx + min(count, laneCount)` of `row` where the sphere's depth
  /// `t` (+∞: not hit) is nearer than the opaque depth. The buffers are padded: lanes past the
  /// run are read and written back unchanged.
  @inline(__always) private func blend(
    _ row: TranslucentSphereRow, sx: Int, count: Int, depths t: FloatLanes, grid: SampleGrid,
    into buffers: SampleBuffers
  ) {
    guard let depths = buffers.depths.baseAddress, let red = buffers.red.baseAddress,
      let green = buffers.green.baseAddress, let blue = buffers.blue.baseAddress
    else { return }
    let i = row.rowBase + sx
    // +∞ (a miss) is never nearer, NaN never.
    var covered = t .< UnsafeRawPointer(depths + i).loadUnaligned(as: FloatLanes.self)
    if count < laneCount {
      // A Float comparison: the integer one compiles to a lane-by-lane loop.
      covered = covered .& (FloatLanes.laneIndices .< Float(count))
    }
    guard covered.anyLane() else { return }
    let shaded: Vector3Lanes
    if row.material.isUniform {
      shaded = Vector3Lanes(repeating: row.material.uniform)
    } else {
      shaded = shade(row, u: grid.u(lanesFrom: sx), depth: DoubleLanes(widening: t))
    }
    let alpha = row.material.opacity
    @inline(__always) func channel(_ base: UnsafeMutablePointer<Float>, _ shaded: DoubleLanes) {
      let raw = UnsafeMutableRawPointer(base + i)
      let color = raw.loadUnaligned(as: FloatLanes.self)
      let blended = FloatLanes(
        narrowing: DoubleLanes(widening: color) * (1 - alpha) + shaded * alpha)
      raw.storeBytes(of: select(covered, blended, color), as: FloatLanes.self)
    }
    channel(red, shaded.x)
    channel(green, shaded.y)
    channel(blue, shaded.z)
  }

  /// `shade(id:…)` of a sphere at screen columns u (lanes) of `row` and depths t: the view
  /// vector `−d / |d|` of the ray d = `direction(u:v:)`, the sphere's `normal`, `lights.shade`.
  @inline(__always) private func shade(
    _ row: TranslucentSphereRow, u: DoubleLanes, depth t: DoubleLanes
  )
    -> Vector3Lanes
  {
    let dx = (u - intrinsics.cx) / intrinsics.fx
    let dy = -(row.v - intrinsics.cy) / intrinsics.fy
    // (d · d) summed x, y, z in that order; d.z² = 1.
    let length = (dx * dx + dy * dy + 1).magnitude.squareRoot()
    let view = Vector3Lanes(x: -dx / length, y: -dy / length, z: 1 / length)
    let normal = row.sphere.normals(u: u, rowDirection: row.direction, depth: t, view: view)
    return lights.shade(row.material, normals: normal, view: view)
  }
}

/// What `blendTranslucentSphere` needs of one sample row.
private struct TranslucentSphereRow {
  let sphere: SpherePrimitive
  let material: ShadingMaterial
  /// Screen v of the row, and the local ray direction's u-independent part there.
  let v: Double
  let direction: SIMD3<Double>
  /// Index of the row's first sample in the band's buffers.
  let rowBase: Int

  @inline(__always) init(
    sphere: SpherePrimitive, material: ShadingMaterial, v: Double, rowBase: Int
  ) {
    self.sphere = sphere
    self.material = material
    self.v = v
    direction = sphere.rowDirection(v: v)
    self.rowBase = rowBase
  }
}

extension SpherePrimitive {
  /// `normal(u:rowDirection:depth:view:)` lane by lane.
  @inline(__always) func normals(
    u: DoubleLanes, rowDirection dRow: SIMD3<Double>, depth t: DoubleLanes, view: Vector3Lanes
  ) -> Vector3Lanes {
    let px = origin.x + (dRow.x + directionPerU.x * u) * t
    let py = origin.y + (dRow.y + directionPerU.y * u) * t
    let pz = origin.z + (dRow.z + directionPerU.z * u) * t
    @inline(__always) func dot(_ c: SIMD3<Double>) -> DoubleLanes {
      c.x * px + c.y * py + c.z * pz
    }
    let x = dot(normalColumns.0)
    let y = dot(normalColumns.1)
    let z = dot(normalColumns.2)
    let length = (x * x + y * y + z * z).magnitude.squareRoot()
    let hasLength = length .> 0
    let nx = select(hasLength, x / length, view.x)
    let ny = select(hasLength, y / length, view.y)
    let nz = select(hasLength, z / length, view.z)
    let away = nx * view.x + ny * view.y + nz * view.z .< 0
    return Vector3Lanes(
      x: select(away, -nx, nx), y: select(away, -ny, ny), z: select(away, -nz, nz))
  }
}

extension ShadingLights {
  /// `shade(_:texture: nil, normal:view:uv:)` lane by lane: the clamped colour of `material`
  /// at unit normals `n` seen along unit view vectors `view`.
  @inline(__always) func shade(
    _ material: ShadingMaterial, normals n: Vector3Lanes, view: Vector3Lanes
  )
    -> Vector3Lanes
  {
    var color: Vector3Lanes
    switch material.lightingModel {
    case .constant:
      color = Vector3Lanes(repeating: material.diffuse)
    case .lambert, .blinn:
      var diffuseLight = Vector3Lanes(repeating: ambient)
      var specularLight = Vector3Lanes(repeating: .zero)
      let blinn = material.lightingModel == .blinn
      for i in towardLights.indices {
        let l = towardLights[i]
        let c = colors[i]
        // Swift's max(0, x): x where x ≥ 0 (−0 included), else 0 (NaN included).
        let nl = n.x * l.x + n.y * l.y + n.z * l.z
        let lit = select(nl .>= 0, nl, .zero)
        diffuseLight.x += c.x * lit
        diffuseLight.y += c.y * lit
        diffuseLight.z += c.z * lit
        guard blinn else { continue }
        let hx = l.x + view.x
        let hy = l.y + view.y
        let hz = l.z + view.z
        let length = (hx * hx + hy * hy + hz * hz).magnitude.squareRoot()
        let cosine = (n.x * hx + n.y * hy + n.z * hz) / length
        let nh = select(cosine .>= 0, cosine, .zero)
        var power: DoubleLanes
        if material.wholeShininess >= 0 {
          power = wholePower(nh, material.wholeShininess)
        } else {
          power = nh
          for lane in 0..<laneCount { power[lane] = pow(nh[lane], material.shininess) }
        }
        // No halfway vector (length 0, or NaN) adds nothing.
        let hasHalfway = length .> 0
        specularLight.x = select(hasHalfway, specularLight.x + c.x * power, specularLight.x)
        specularLight.y = select(hasHalfway, specularLight.y + c.y * power, specularLight.y)
        specularLight.z = select(hasHalfway, specularLight.z + c.z * power, specularLight.z)
      }
      color = Vector3Lanes(
        x: material.diffuse.x * diffuseLight.x, y: material.diffuse.y * diffuseLight.y,
        z: material.diffuse.z * diffuseLight.z)
      if blinn {
        color.x += material.specular.x * specularLight.x
        color.y += material.specular.y * specularLight.y
        color.z += material.specular.z * specularLight.z
      }
    }
    // `clampedToUnit`: Double.maximum(0, c) is c where c ≥ 0 (−0 included), else 0 (NaN
    // included); Double.minimum(1, that) is 1 where it exceeds 1.
    @inline(__always) func clamped(_ c: DoubleLanes) -> DoubleLanes {
      let low = select(c .>= 0, c, .zero)
      return select(low .> 1, DoubleLanes(repeating: 1), low)
    }
    return Vector3Lanes(x: clamped(color.x), y: clamped(color.y), z: clamped(color.z))
  }
}

extension SphereRow {
  /// `depth(u:near:far:)` lane by lane (the same operations, so the same bits); +∞ where that
  /// returns `nil`.
  @inline(__always) func depths(u: DoubleLanes, near: Double, far: Double) -> DoubleLanes {
    let a = a0 + u * (a1 + u * a2)
    let b = b0 + u * b1
    let discriminant = b * b - a * k
    // |D| (lanes that miss are discarded) lets the compiler drop libm's errno fallback.
    let root = discriminant.magnitude.squareRoot()
    let nearHit = (-b - root) / a
    // The near root when it is at or beyond `near`, else the far one; either only within
    // near…far (NaN never).
    let t = select(nearHit .>= near, nearHit, (-b + root) / a)
    let hit = (discriminant .> 0) .& (t .>= near) .& (t .<= far)
    return select(hit, t, DoubleLanes(repeating: .infinity))
  }
}

extension PreparedFrame {
  /// The scalar pass `blendTranslucentSphere` replaces, one sample at a time: the reference
  /// its lanes must match bit for bit (`sphereReferencePaths`, tests).
  func blendTranslucentSphereReference(
    _ entry: DrawEntry, grid: SampleGrid, into buffers: SampleBuffers
  ) {
    let alpha = materials[entry.material].opacity
    let sphere = spheres[entry.index]
    // `shade(id:…)` for this sphere, its material and row direction read once, not per
    // sample (the same operations on the same values, so the same bits).
    let material = materials[entry.material]
    for sy in grid.rows(minV: sphere.minV, maxV: sphere.maxV) {
      let v = grid.v(sy)
      let rowBase = (sy - grid.firstRow) * grid.columns
      let rowDirection = sphere.rowDirection(v: v)
      @inline(__always) func columns(_ span: (Double, Double)) -> Range<Int> {
        grid.columns(minU: max(span.0, sphere.minU), maxU: min(span.1, sphere.maxU))
      }
      @inline(__always) func blend(_ sx: Int, depth t: Float) {
        let i = rowBase + sx
        guard t < buffers.depths[i] else { return }
        let shaded: SIMD3<Double>
        if material.isUniform {
          shaded = material.uniform
        } else {
          let u = grid.u(sx)
          let d = direction(u: u, v: v)
          let view = -d / (d * d).sum().squareRoot()
          let normal = sphere.normal(
            u: u, rowDirection: rowDirection, depth: Double(t), view: view)
          shaded = lights.shade(material, texture: nil, normal: normal, view: view, uv: .zero)
        }
        buffers.setColor(
          i, SIMD3<Float>(SIMD3<Double>(buffers.color(i)) * (1 - alpha) + shaded * alpha))
      }
      if sphere.inverseRadius > 0 {
        // The opaque pass's depths for uniform spheres (`UniformSphereRow`).
        let uniform = uniformSpheres[entry.index]
        let row = UniformSphereRow(uniform, v: v, dy: grid.rayY(sy))
        guard let span = row.span(uniform, margin: 1) else { continue }
        let columns = columns(span)
        for start in stride(from: columns.lowerBound, to: columns.upperBound, by: laneCount) {
          let t = row.depths(uniform, lanesFrom: start, grid: grid, primitive: sphere)
          for lane in 0..<min(laneCount, columns.upperBound - start) where t[lane] < .infinity {
            blend(start + lane, depth: t[lane])
          }
        }
      } else {
        let quadratic = sphere.row(v: v)
        guard let span = quadratic.span(margin: 1) else { continue }
        for sx in columns(span) {
          guard let t = quadratic.depth(u: grid.u(sx), near: near, far: far) else { continue }
          blend(sx, depth: Float(t))
        }
      }
    }
  }
}
