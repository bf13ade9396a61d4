extension PreparedFrame {
  /// Visibility: for every sample of the band, the nearest opaque primitive and its depth.
  /// Strictly nearer wins, so on equal depths the first in list order stays.
  func rasterizeOpaque(grid: SampleGrid, into buffers: SampleBuffers) {
    let sphereCount = Int32(spheres.count)
    for entry in opaque {
      if entry.isSphere {
        let sphere = spheres[entry.index]
        let id = Int32(entry.index)
        for sy in grid.rows(minV: sphere.minV, maxV: sphere.maxV) {
          // Node-local space: ray direction on this row.
          let v = grid.v(sy)
          let rowDirection = sphere.rowDirection(v: v)
          guard let (low, high) = sphere.span(rowDirection: rowDirection, margin: 1) else {
            continue
          }
          let rowBase = (sy - grid.firstRow) * grid.columns
          for sx in grid.columns(minU: max(low, sphere.minU), maxU: min(high, sphere.maxU)) {
            let i = rowBase + sx
            let current = buffers.depths[i]
            guard sphere.minDepth < current,
              let t = sphere.depth(u: grid.u(sx), rowDirection: rowDirection, near: near, far: far),
              t < current
            else { continue }
            buffers.depths[i] = t
            buffers.ids[i] = id
          }
        }
      } else {
        let triangle = triangles[entry.index]
        let outline = triangle.outline
        let id = sphereCount + Int32(entry.index)
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
            if t < buffers.depths[i] {
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
    for sy in grid.firstRow..<(grid.firstRow + grid.rowCount) {
      let v = grid.v(sy)
      let rowBase = (sy - grid.firstRow) * grid.columns
      let rowBackground = background.color(u: 0, v: v)
      for sx in 0..<grid.columns {
        let i = rowBase + sx
        let id = buffers.ids[i]
        let u = grid.u(sx)
        if id < 0 {
          buffers.colors[i] = constantBackground ? rowBackground : background.color(u: u, v: v)
        } else {
          buffers.colors[i] = shade(
            id: id, sphereCount: sphereCount, u: u, v: v, depth: buffers.depths[i])
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
          let rowDirection = sphere.rowDirection(v: v)
          guard let (low, high) = sphere.span(rowDirection: rowDirection, margin: 1) else {
            continue
          }
          let rowBase = (sy - grid.firstRow) * grid.columns
          for sx in grid.columns(minU: max(low, sphere.minU), maxU: min(high, sphere.maxU)) {
            let i = rowBase + sx
            let u = grid.u(sx)
            guard
              let t = sphere.depth(u: u, rowDirection: rowDirection, near: near, far: far),
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
        for sy in grid.rows(minV: outline.minV, maxV: outline.maxV) {
          let v = grid.v(sy)
          let rowBase = (sy - grid.firstRow) * grid.columns
          let columns = outline.coveredColumns(
            v: v, columns: grid.columns(minU: outline.minU, maxU: outline.maxU), grid: grid)
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
