extension PreparedFrame {
  /// Visibility: for every sample of the band, the nearest opaque primitive and its depth.
  /// Primitives are drawn near to far; on equal depths the one earlier in list order wins
  /// (`drawOrder`), the same result as drawing in list order with a strict depth test.
  func rasterizeOpaque(grid: SampleGrid, into buffers: SampleBuffers) {
    let sphereCount = Int32(spheres.count)
    let drawOrder = self.drawOrder
    /// Whether a sample at depth `t` of the primitive at list position `order` replaces what
    /// sample `i` holds.
    @inline(__always) func wins(_ t: Double, _ order: Int32, _ i: Int) -> Bool {
      let current = buffers.depths[i]
      if t < current { return true }
      guard t == current else { return false }
      let holder = buffers.ids[i]
      return holder >= 0 && order < drawOrder[Int(holder)]
    }
    // The band's first and last sample rows' v: primitives entirely above or below skip the
    // row set-up (their bounds carry a margin, so this drops no covered sample).
    let bandTop = grid.v(grid.firstRow)
    let bandBottom = grid.v(grid.firstRow + grid.rowCount - 1)
    for entry in opaque {
      if entry.isSphere {
        guard spheres[entry.index].maxV >= bandTop, spheres[entry.index].minV <= bandBottom
        else { continue }
        let sphere = spheres[entry.index]
        let id = Int32(entry.index)
        let order = drawOrder[entry.index]
        for sy in grid.rows(minV: sphere.minV, maxV: sphere.maxV) {
          // Node-local space: ray direction on this row.
          let v = grid.v(sy)
          let quadratic = sphere.row(v: v)
          guard let (low, high) = quadratic.span(margin: 1) else { continue }
          let rowBase = (sy - grid.firstRow) * grid.columns
          let columns = grid.columns(
            minU: max(low, sphere.minU), maxU: min(high, sphere.maxU))
          // Two samples at a time (square root and division on both lanes at once). A lane
          // whose stored depth is below minDepth cannot win (t ≥ minDepth).
          var sx = columns.lowerBound
          while sx < columns.upperBound {
            let i = rowBase + sx
            let pair = sx + 1 < columns.upperBound
            let current0 = buffers.depths[i]
            let current1 = pair ? buffers.depths[i + 1] : -Double.infinity
            if sphere.minDepth <= current0 || sphere.minDepth <= current1 {
              let t = quadratic.depths(
                u: SIMD2(grid.u(sx), grid.u(pair ? sx + 1 : sx)), near: near, far: far)
              if wins(t[0], order, i) {
                buffers.depths[i] = t[0]
                buffers.ids[i] = id
              }
              if pair, wins(t[1], order, i + 1) {
                buffers.depths[i + 1] = t[1]
                buffers.ids[i + 1] = id
              }
            }
            sx += 2
          }
        }
      } else {
        let triangle = triangles[entry.index]
        let outline = triangle.outline
        let id = sphereCount + Int32(entry.index)
        let order = drawOrder[Int(id)]
        for sy in grid.rows(minV: outline.minV, maxV: outline.maxV) {
          let v = grid.v(sy)
          let rowBase = (sy - grid.firstRow) * grid.columns
          // Screen space: coverage by the fill rule; camera space: exact plane depth.
          let columns = outline.coveredColumns(
            v: v, columns: grid.columns(minU: outline.minU, maxU: outline.maxU), grid: grid)
          for sx in columns {
            let u = grid.u(sx)
            guard let t = triangle.depth(direction: direction(u: u, v: v)), t <= far
            else { continue }
            let i = rowBase + sx
            if wins(t, order, i) {
              buffers.depths[i] = t
              buffers.ids[i] = id
            }
          }
        }
      }
    }
  }

  /// Deferred shading: each sample's colour from its visible primitive or the background.
  func shadeOpaque(grid: SampleGrid, background: BackgroundSampler, into buffers: SampleBuffers) {
    let sphereCount = Int32(spheres.count)
    let constantBackground: Bool
    if case .image = background.background {
      constantBackground = false
    } else {
      constantBackground = true
    }
    let cx = intrinsics.cx
    let inverseFx = 1 / intrinsics.fx
    let inverseFy = 1 / intrinsics.fy
    // Per material: samples shade together when these agree (blinn flag, whole exponent).
    let shadingKeys = fastShadingKeys
    fastSpheres.withUnsafeBufferPointer { fastSpheres in
      fastSphereMaterials.withUnsafeBufferPointer { fastSphereMaterials in
        materials.withUnsafeBufferPointer { materials in
          for sy in grid.firstRow..<(grid.firstRow + grid.rowCount) {
            let v = grid.v(sy)
            let rowBase = (sy - grid.firstRow) * grid.columns
            let rowBackground = background.color(u: 0, v: v)
            // Camera ray direction's y on this row (fast path: reciprocal multiplies).
            let dy = -(v - intrinsics.cy) * inverseFy
            // The material index when sample i is a uniform-scale sphere whose material
            // `ShadingLights.shadeSpheres` handles, else −1.
            @inline(__always) func fastMaterial(_ i: Int) -> Int32 {
              let id = buffers.ids[i]
              return id >= 0 && id < sphereCount ? fastSphereMaterials[Int(id)] : -1
            }
            var sx = 0
            while sx < grid.columns {
              let i = rowBase + sx
              let id = buffers.ids[i]
              if id < 0 {
                buffers.colors[i] =
                  constantBackground ? rowBackground : background.color(u: grid.u(sx), v: v)
                sx += 1
                continue
              }
              let material0 = fastMaterial(i)
              if material0 >= 0 {
                // Up to four neighbouring samples with the same lighting model and exponent
                // (the other lanes repeat the last one; each lane's bits are its own).
                let key = shadingKeys[Int(material0)]
                var lanes = SIMD4<Int32>(repeating: material0)
                var count = 1
                while count < 4, sx + count < grid.columns {
                  let next = fastMaterial(i + count)
                  guard next >= 0, shadingKeys[Int(next)] == key else { break }
                  lanes[count] = next
                  count += 1
                }
                @inline(__always) func lane(_ l: Int) -> Int { i + min(l, count - 1) }
                @inline(__always) func sphere(_ l: Int) -> SIMD4<Double> {
                  fastSpheres[Int(buffers.ids[lane(l)])]
                }
                let s0 = sphere(0)
                let s1 = sphere(1)
                let s2 = sphere(2)
                let s3 = sphere(3)
                let samples = SphereSamples(
                  dx: (SIMD4(
                    grid.u(sx), grid.u(sx + min(1, count - 1)), grid.u(sx + min(2, count - 1)),
                    grid.u(sx + count - 1)) - cx) * inverseFx,
                  dy: dy,
                  depth: SIMD4(
                    buffers.depths[lane(0)], buffers.depths[lane(1)], buffers.depths[lane(2)],
                    buffers.depths[lane(3)]),
                  cx: SIMD4(s0.x, s1.x, s2.x, s3.x), cy: SIMD4(s0.y, s1.y, s2.y, s3.y),
                  cz: SIMD4(s0.z, s1.z, s2.z, s3.z), inverseRadius: SIMD4(s0.w, s1.w, s2.w, s3.w))
                let blinn = key & 1 != 0
                let lighting = lights.shadeSpheres(samples, blinn: blinn, exponent: key >> 1)
                @inline(__always) func store(
                  _ l: Int, _ diffuseLight: SIMD3<Double>, _ specularLight: SIMD3<Double>
                ) {
                  let material = materials[Int(lanes[l])]
                  var color = material.diffuse * diffuseLight
                  if blinn { color += material.specular * specularLight }
                  buffers.colors[i + l] = SIMD3(
                    min(max(color.x, 0), 1), min(max(color.y, 0), 1), min(max(color.z, 0), 1))
                }
                store(0, lighting.diffuse.0, lighting.specular.0)
                if count > 1 { store(1, lighting.diffuse.1, lighting.specular.1) }
                if count > 2 { store(2, lighting.diffuse.2, lighting.specular.2) }
                if count > 3 { store(3, lighting.diffuse.3, lighting.specular.3) }
                sx += count
                continue
              }
              buffers.colors[i] = shade(
                id: id, sphereCount: sphereCount, u: grid.u(sx), v: v, depth: buffers.depths[i])
              sx += 1
            }
          }
        }
      }
    }
  }

  /// Transparent primitives, back to front, depth-tested against the opaque depth (no depth
  /// writes), blended as `colour · (1 − α) + shaded · α`.
  func blendTransparent(grid: SampleGrid, into buffers: SampleBuffers) {
    let sphereCount = Int32(spheres.count)
    for entry in transparent {
      let alpha = materials[entry.material].opacity
      if entry.isSphere {
        let sphere = spheres[entry.index]
        for sy in grid.rows(minV: sphere.minV, maxV: sphere.maxV) {
          let v = grid.v(sy)
          let quadratic = sphere.row(v: v)
          guard let (low, high) = quadratic.span(margin: 1) else { continue }
          let rowBase = (sy - grid.firstRow) * grid.columns
          for sx in grid.columns(minU: max(low, sphere.minU), maxU: min(high, sphere.maxU)) {
            let i = rowBase + sx
            let u = grid.u(sx)
            guard
              let t = quadratic.depth(u: u, near: near, far: far),
              t < buffers.depths[i]
            else { continue }
            let shaded = shade(
              id: Int32(entry.index), sphereCount: sphereCount, u: u, v: v, depth: t)
            buffers.colors[i] = buffers.colors[i] * (1 - alpha) + shaded * alpha
          }
        }
      } else {
        let triangle = triangles[entry.index]
        let outline = triangle.outline
        let material = materials[entry.material]
        // Constant-lit untextured: blend a precomputed colour (same operations, same bits).
        let keep = 1 - alpha
        let premultiplied = material.uniform * alpha
        for sy in grid.rows(minV: outline.minV, maxV: outline.maxV) {
          let v = grid.v(sy)
          let rowBase = (sy - grid.firstRow) * grid.columns
          let columns = outline.coveredColumns(
            v: v, columns: grid.columns(minU: outline.minU, maxU: outline.maxU), grid: grid)
          guard !columns.isEmpty else { continue }
          if material.isUniform,
            let first = triangle.depth(direction: direction(u: grid.u(columns.lowerBound), v: v)),
            let last = triangle.depth(
              direction: direction(u: grid.u(columns.upperBound - 1), v: v)),
            first <= far, last <= far
          {
            // Along a row the computed depth h / (n · d(u)) is monotone in u (each rounded
            // step is monotone and n · d keeps its sign between the ends), so every depth of
            // the row lies in [nearest, farthest] and most samples need no division.
            let nearest = min(first, last)
            let farthest = max(first, last)
            for sx in columns {
              let i = rowBase + sx
              let current = buffers.depths[i]
              if current <= nearest { continue }
              if current <= farthest {
                guard let t = triangle.depth(direction: direction(u: grid.u(sx), v: v)),
                  t < current
                else { continue }
              }
              buffers.colors[i] = buffers.colors[i] * keep + premultiplied
            }
            continue
          }
          for sx in columns {
            let u = grid.u(sx)
            let i = rowBase + sx
            guard let t = triangle.depth(direction: direction(u: u, v: v)), t <= far,
              t < buffers.depths[i]
            else { continue }
            let shaded = shade(
              id: sphereCount + Int32(entry.index), sphereCount: sphereCount, u: u, v: v,
              depth: t)
            buffers.colors[i] = buffers.colors[i] * (1 - alpha) + shaded * alpha
          }
        }
      }
    }
  }

  /// The shaded colour of primitive `id` (spheres first, then triangles) at screen (u, v) and
  /// depth t.
  @inline(__always) func shade(id: Int32, sphereCount: Int32, u: Double, v: Double, depth t: Double)
    -> SIMD3<Double>
  {
    let materialIndex =
      id < sphereCount ? sphereMaterials[Int(id)] : triangleMaterials[Int(id - sphereCount)]
    if materials[materialIndex].isUniform { return materials[materialIndex].uniform }
    // Camera space: d is the ray direction, the eye at the origin.
    let d = direction(u: u, v: v)
    let view = -d / (d * d).sum().squareRoot()
    if id < sphereCount {
      let sphere = spheres[Int(id)]
      let normal = sphere.normal(
        u: u, rowDirection: sphere.rowDirection(v: v), depth: t, view: view)
      return lights.shade(
        materials[materialIndex], texture: nil, normal: normal, view: view, uv: .zero)
    }
    let index = Int(id - sphereCount)
    let triangle = triangles[index]
    let material = materials[materialIndex]
    return lights.shade(
      material, texture: material.textureIndex >= 0 ? textures[material.textureIndex] : nil,
      normal: triangle.shadingNormal, view: view, uv: triangle.uv(at: d * t))
  }
}
