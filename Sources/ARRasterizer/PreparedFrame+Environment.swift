import ARMath
import ARRenderCore
import ARScene

extension PreparedFrame {
  /// Adds the environment's triangles (camera space, both sides, clipped and projected as any
  /// triangle) and materials; called before the render list's items, so its entries lead
  /// `opaque` and win equal depths. Triangles entirely outside the view (by chunk, then one
  /// by one: `EnvironmentViewBounds`) are left out: they would cover no sample.
  mutating func prepareEnvironment(_ environment: EnvironmentGeometry, cameraFromWorld: Matrix4) {
    environmentOccludes = environment.occludes
    let materialBase = materials.count
    for source in environment.materials {
      let color = source.baseColor
      let material = Material(
        diffuse: Color(red: color.red, green: color.green, blue: color.blue),
        lightingModel: environment.isLit ? .lambert : .constant, isDoubleSided: true)
      var shading = ShadingMaterial(material, opacity: 1)
      if let texture = source.texture { shading.mipTextureIndex = appendMipTexture(texture) }
      materials.append(shading)
    }
    // At most every triangle is drawn: one allocation instead of the arrays' growth (each
    // doubling copied the triangles prepared so far).
    let most = environment.materialIndices.count
    opaque.reserveCapacity(opaque.count + most)
    triangles.reserveCapacity(triangles.count + most)
    triangleMaterials.reserveCapacity(triangleMaterials.count + most)
    let view = EnvironmentViewBounds(intrinsics: intrinsics, near: near)
    let chunkSize = EnvironmentGeometry.chunkSize
    environment.positions.withUnsafeBufferPointer { positions in
      environment.uvs.withUnsafeBufferPointer { uvs in
        environment.materialIndices.withUnsafeBufferPointer { materialIndices in
          environment.chunkBounds.withUnsafeBufferPointer { bounds in
            for chunk in 0..<(bounds.count / 2) {
              // A chunk whose box is outside the view draws no sample: its triangles are not
              // transformed.
              guard
                view.mayShow(low: bounds[2 * chunk], high: bounds[2 * chunk + 1], cameraFromWorld)
              else { continue }
              let first = chunk * chunkSize
              for triangle in first..<min(first + chunkSize, materialIndices.count) {
                @inline(__always) func vertex(_ k: Int) -> TriangleVertex {
                  let p = positions[3 * triangle + k]
                  let c = cameraFromWorld.transformPoint(Vector3(p.x, p.y, p.z))
                  return TriangleVertex(position: SIMD3(c.x, c.y, c.z), uv: uvs[3 * triangle + k])
                }
                let a = vertex(0)
                let b = vertex(1)
                let c = vertex(2)
                guard view.mayShow(a.position, b.position, c.position),
                  let prepared = TrianglePrimitive(
                    a, b, c, doubleSided: true, intrinsics: intrinsics, near: near)
                else { continue }
                let material = materialBase + Int(materialIndices[triangle])
                opaque.append(
                  DrawEntry(isSphere: false, index: triangles.count, material: material))
                triangles.append(prepared)
                triangleMaterials.append(material)
              }
            }
          }
        }
      }
    }
    environmentEntryCount = opaque.count
  }

  /// Adds `texture` to `mipTextures`, with its shape and view; returns its index.
  mutating func appendMipTexture(_ texture: MipmappedTexture) -> Int {
    mipTextures.append(texture)
    mipTextureShapes.append(TextureShape(texture))
    mipTextureViews.append(texture.view)
    return mipTextures.count - 1
  }

  /// The number of leading `positions` (ascending indices into `opaque`) that are environment
  /// entries.
  func environmentSplit(_ positions: [Int32]) -> Int {
    var low = 0
    var high = positions.count
    while low < high {
      let middle = (low + high) / 2
      if Int(positions[middle]) < environmentEntryCount { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The colour of an environment triangle with a mip-mapped texture on the camera ray
  /// direction `d` (`view` = −d/|d|): base colour × the trilinear texture sample, unlit or
  /// lambert-lit.
  ///
  /// Footprint: the camera point on the triangle's plane is X(u, v) = t·d with
  /// t = h / (n·d); its screen derivatives are ∂X/∂u = t·(∂d/∂u − d·(n·∂d/∂u)/(n·d)) (and the
  /// same for v), ∂d/∂u = (1/fx, 0, 0), ∂d/∂v = (0, −1/fy, 0); times the uv gradients and the
  /// sample spacing 1/N they give the texel footprint of one sample, exactly.
  @inline(__always) func environmentColor(
    triangle: TrianglePrimitive, material: ShadingMaterial, texture: TextureView,
    direction d: SIMD3<Double>
  ) -> SIMD3<Double> {
    let n = triangle.planeNormal
    let nd = (n * d).sum()
    let t = triangle.planeOffset / nd
    let point = d * t
    let uv = triangle.uv(at: point)
    let du = SIMD3<Double>(1 / intrinsics.fx, 0, 0)
    let dv = SIMD3<Double>(0, -1 / intrinsics.fy, 0)
    let xu = (du - d * ((n * du).sum() / nd)) * (t * sampleSpacing)
    let xv = (dv - d * ((n * dv).sum() / nd)) * (t * sampleSpacing)
    let uvPerU = SIMD2((triangle.gradientU * xu).sum(), (triangle.gradientV * xu).sum())
    let uvPerV = SIMD2((triangle.gradientU * xv).sum(), (triangle.gradientV * xv).sum())
    let texel = texture.sample(uv: uv, footprintU: uvPerU, footprintV: uvPerV)
    let base = material.diffuse * texel
    guard material.lightingModel != .constant else {
      return base.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1))
    }
    var lit = material
    lit.diffuse = base
    let view = -d / (d * d).sum().squareRoot()
    return lights.shade(lit, texture: nil, normal: triangle.shadingNormal, view: view, uv: .zero)
  }

  /// Shades the samples `range` of sample row sy (`rowBase` its first sample), all showing
  /// environment triangle `index` whose material has a mip-mapped texture: the triangle,
  /// material and texture looked up once for the run. An unlit run in Float lanes goes into
  /// `batch` (`EnvironmentRunBatch`: shaded when it fills or is flushed), others at once.
  func shadeEnvironmentRun(
    triangle index: Int, grid: SampleGrid, v: Double, range: Range<Int>, rowBase: Int,
    batch: inout EnvironmentRunBatch, into buffers: SampleBuffers
  ) {
    triangles.withUnsafeBufferPointer { triangles in
      // By address: a copy of the triangle per run (most runs of a detailed model are a few
      // samples long) was a memmove.
      guard let base = triangles.baseAddress, triangles.indices.contains(index) else { return }
      shadeEnvironmentRun(
        base + index, material: materials[triangleMaterials[index]], grid: grid, v: v,
        range: range, rowBase: rowBase, batch: &batch, into: buffers)
    }
  }

  /// `shadeEnvironmentRun(triangle:…)` for the triangle at `triangle`, of `material`.
  @inline(__always) private func shadeEnvironmentRun(
    _ trianglePointer: UnsafePointer<TrianglePrimitive>, material: ShadingMaterial,
    grid: SampleGrid, v: Double, range: Range<Int>, rowBase: Int,
    batch: inout EnvironmentRunBatch, into buffers: SampleBuffers
  ) {
    let textureIndex = material.mipTextureIndex
    let dy = direction(u: 0, v: v).y
    // Float lanes (`EnvironmentRunSampler`), with the row's other runs of this texture.
    if material.lightingModel == .constant,
      let sampler = EnvironmentRunSampler(
        triangle: trianglePointer, diffuse: material.diffuse,
        texture: mipTextureShapes[textureIndex], intrinsics: intrinsics, dy: dy,
        uStart: grid.u(range.lowerBound - rowBase), uStep: sampleSpacing,
        dyStep: -sampleSpacing / intrinsics.fy, count: range.count)
    {
      add(sampler, texture: textureIndex, range: range, to: &batch, into: buffers)
      return
    }
    let texture = mipTextureViews[textureIndex]
    @inline(__always) func shadeOne(_ j: Int) {
      let d = direction(u: grid.u(j - rowBase), v: v)
      let color = environmentColor(
        triangle: trianglePointer.pointee, material: material, texture: texture, direction: d)
      buffers.setColor(j, SIMD3<Float>(color))
    }
    guard material.lightingModel == .constant else {
      for j in range { shadeOne(j) }
      return
    }
    // Otherwise eight samples at a time in Double (`environmentColors`, the scalar path's
    // bits); a last partial step repeats its last sample in the spare lanes.
    let n = trianglePointer.pointee.planeNormal
    let du = SIMD3<Double>(1 / intrinsics.fx, 0, 0)
    let dv = SIMD3<Double>(0, -1 / intrinsics.fy, 0)
    let constants = EnvironmentRunConstants(
      triangle: trianglePointer.pointee, diffuse: material.diffuse, dy: dy,
      normalDotU: (n * du).sum(),
      normalDotV: (n * dv).sum(), normalYTimesDy: n.y * dy, inverseFx: du.x,
      minusInverseFy: dv.y, sampleSpacing: sampleSpacing)
    let scale = Double(grid.scale)
    var j = range.lowerBound
    while j < range.upperBound {
      let count = min(8, range.upperBound - j)
      var columns = TextureLanes()
      for lane in 0..<8 { columns[lane] = Double(j - rowBase + min(lane, count - 1)) }
      let u = grid.scale == 1 ? columns : (columns + 0.5) / scale - 0.5
      if let (red, green, blue) = environmentColors(constants, texture: texture, u: u) {
        let r = SIMD8<Float>(narrowing: red)
        let g = SIMD8<Float>(narrowing: green)
        let b = SIMD8<Float>(narrowing: blue)
        for lane in 0..<count { buffers.setColor(j + lane, SIMD3(r[lane], g[lane], b[lane])) }
      } else {
        for lane in 0..<count { shadeOne(j + lane) }
      }
      j += count
    }
  }
}

extension SampleBuffers {
  /// Negates the depth of every covered sample of the first `count` (a finite depth; an
  /// empty sample holds +∞): content drawn before the environment, whose depths (positive) no
  /// environment depth then beats (t ≤ −t′ never holds for positive t, t′), so the
  /// environment fills only the samples left open.
  func setContentDepthsAside(count: Int) {
    transformDepths(count: count) { depth in
      select(depth .< .infinity, FloatLanes(bitPattern: depth.bitPattern ^ 0x8000_0000), depth)
    }
  }

  /// After the environment: the content's depths back (negation is exact), the environment's
  /// forgotten (+∞; its ids stay, for shading and the depth output), empty samples +∞.
  func restoreContentDepths(count: Int) {
    transformDepths(count: count) { depth in
      select(
        depth .< 0, FloatLanes(bitPattern: depth.bitPattern ^ 0x8000_0000),
        FloatLanes(repeating: .infinity))
    }
  }

  /// Replaces each of the first `count` depths by `transform` of it, `laneCount` at a time
  /// (the buffers are padded past `count`: lanes there are written back unchanged).
  @inline(__always) private func transformDepths(
    count: Int, _ transform: (FloatLanes) -> FloatLanes
  ) {
    guard let base = depths.baseAddress else { return }
    var i = 0
    while i < count {
      let raw = UnsafeMutableRawPointer(base + i)
      let depth = raw.loadUnaligned(as: FloatLanes.self)
      let inside = FloatLanes.laneIndices .< Float(count - i)
      raw.storeBytes(of: select(inside, transform(depth), depth), as: FloatLanes.self)
      i += laneCount
    }
  }
}
