import ARRenderCore
import CLaneMath

extension PreparedFrame {
  /// Visibility: for every sample of the band, the nearest opaque primitive and its depth.
  /// Primitives are drawn near to far; on equal depths the one earlier in list order wins
  /// (`drawOrder`), the same result as drawing in list order with a strict depth test.
  ///
  /// `positions` are the indices into `opaque` to draw, ascending (`opaqueBins`).
  func rasterizeOpaque(grid: SampleGrid, positions: [Int32], into buffers: SampleBuffers) {
    // By pointer: `wins` captures it, and a captured array would be retained per call.
    drawOrder.withUnsafeBufferPointer { drawOrder in
      guard environmentEntryCount > 0 else {
        rasterizeOpaque(grid: grid, positions: positions[...], into: buffers, drawOrder: drawOrder)
        return
      }
      let split = environmentSplit(positions)
      guard !environmentOccludes else {
        // The environment first, its depths kept: content behind it is hidden.
        rasterizeOpaque(
          grid: grid, positions: positions[..<split], into: buffers, drawOrder: drawOrder)
        rasterizeOpaque(
          grid: grid, positions: positions[split...], into: buffers, drawOrder: drawOrder)
        return
      }
      // Without occlusion virtual content covers the environment (the camera image) whatever
      // its depth: the content first, then the environment only where no content is, its
      // depths then forgotten while the ids keep its surface for shading and the depth output.
      // The same depths and ids as drawing the environment first and forgetting its depths
      // (content never ties with the +∞ it then meets), but no environment sample is covered
      // or depth-tested under content (a third of B5's samples). A band without content
      // draws the environment alone, without the per-step test for content.
      let count = grid.columns * grid.rowCount
      let content = positions[split...]
      if !content.isEmpty {
        rasterizeOpaque(grid: grid, positions: content, into: buffers, drawOrder: drawOrder)
        buffers.setContentDepthsAside(count: count)
      }
      rasterizeOpaque(
        grid: grid, positions: positions[..<split], into: buffers, drawOrder: drawOrder,
        skipsContent: !content.isEmpty)
      buffers.restoreContentDepths(count: count)
    }
  }

  /// `skipsContent`: the buffers hold content set aside (`SampleBuffers.setContentDepthsAside`),
  /// whose vector steps the triangles skip.
  private func rasterizeOpaque(
    grid: SampleGrid, positions: ArraySlice<Int32>, into buffers: SampleBuffers,
    drawOrder: UnsafeBufferPointer<Int32>, skipsContent: Bool = false
  ) {
    let sphereCount = Int32(spheres.count)
    /// Whether a sample at depth `t` (rounded to the depth buffer's Float) of the primitive at
    /// list position `order` replaces what sample `i` holds.
    @inline(__always) func wins(_ t: Float, _ order: Int32, _ i: Int) -> Bool {
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
    // The triangle records a few entries ahead are asked into the caches while this one is
    // drawn: a detailed environment's records (416 bytes each) are read once per band, from
    // far beyond the caches, and the first read of each stalled (5.7 % of B5 on a Zen 1).
    // Positions ascend and the environment's entries come first: past them (the spheres and
    // the content's few triangles) one comparison per entry is all this costs.
    var ahead = positions.startIndex + PreparedFrame.prefetchDistance
    for position in positions {
      if ahead < positions.endIndex, Int(positions[ahead]) < environmentEntryCount {
        prefetchTriangle(of: opaque[Int(positions[ahead])])
        ahead += 1
      }
      let entry = opaque[Int(position)]
      if entry.isSphere {
        guard spheres[entry.index].maxV >= bandTop, spheres[entry.index].minV <= bandBottom
        else { continue }
        let sphere = spheres[entry.index]
        let id = Int32(entry.index)
        let order = drawOrder[entry.index]
        if sphere.inverseRadius > 0 {
          rasterizeUniformSphere(
            uniformSpheres[entry.index], sphere: sphere, id: id, grid: grid, into: buffers
          ) { t, i in wins(t, order, i) }
          continue
        }
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
            let current0 = Double(buffers.depths[i])
            let current1 = pair ? Double(buffers.depths[i + 1]) : -Double.infinity
            if sphere.minDepth <= current0 || sphere.minDepth <= current1 {
              let t = quadratic.depths(
                u: SIMD2(grid.u(sx), grid.u(pair ? sx + 1 : sx)), near: near, far: far)
              let t0 = Float(t[0])
              let t1 = Float(t[1])
              if wins(t0, order, i) {
                buffers.depths[i] = t0
                buffers.ids[i] = id
              }
              if pair, wins(t1, order, i + 1) {
                buffers.depths[i + 1] = t1
                buffers.ids[i + 1] = id
              }
            }
            sx += 2
          }
        }
      } else {
        let id = sphereCount + Int32(entry.index)
        let order = drawOrder[Int(id)]
        triangles.withUnsafeBufferPointer { triangles in
          // By address: a copy of the triangle (about 380 bytes) per triangle and band was a
          // memmove, 3 % of the environment bench B5.
          guard let base = triangles.baseAddress, triangles.indices.contains(entry.index) else {
            return
          }
          rasterizeOpaqueTriangle(
            base + entry.index, id: id, grid: grid, into: buffers, skipsContent: skipsContent
          ) {
            t, i in wins(t, order, i)
          }
        }
      }
    }
  }

  /// How many opaque entries ahead `rasterizeOpaque` asks for triangle records: about one
  /// triangle's row set-up and coverage covers a memory access.
  static let prefetchDistance = 4

  /// Asks every cache line of `entry`'s triangle record (its outline and plane, which the
  /// opaque pass reads, and what shading reads later) into the caches; nothing for a sphere.
  @inline(__always) private func prefetchTriangle(of entry: DrawEntry) {
    guard !entry.isSphere else { return }
    triangles.withUnsafeBufferPointer { triangles in
      guard let base = triangles.baseAddress, triangles.indices.contains(entry.index) else {
        return
      }
      let record = UnsafeRawPointer(base + entry.index)
      var offset = 0
      while offset < MemoryLayout<TrianglePrimitive>.stride {
        arsim_prefetch(record + offset)
        offset += 64
      }
    }
  }

  /// Opaque visibility of the triangle at `triangle` (draw id `id`) over the sample rows of
  /// `grid`: writes depth and `id` where the plane's depth `wins`; with `skipsContent`, vector
  /// steps whose samples all hold content set aside are skipped.
  @inline(__always) private func rasterizeOpaqueTriangle(
    _ triangle: UnsafePointer<TrianglePrimitive>, id: Int32, grid: SampleGrid,
    into buffers: SampleBuffers, skipsContent: Bool, wins: (Float, Int) -> Bool
  ) {
    let (minU, maxU) = (triangle.pointee.outline.minU, triangle.pointee.outline.maxU)
    let (minV, maxV) = (triangle.pointee.outline.minV, triangle.pointee.outline.maxV)
    let box = grid.columns(minU: minU, maxU: maxU)
    for sy in grid.rows(minV: minV, maxV: maxV) {
      let v = grid.v(sy)
      let rowBase = (sy - grid.firstRow) * grid.columns
      let dy = grid.rayY(sy)
      if box.count <= PreparedFrame.narrowTriangleColumns {
        rasterizeNarrowTriangleRow(
          triangle, id: id, columns: box, grid: grid, v: v, dy: dy, rowBase: rowBase,
          into: buffers, skipsContent: skipsContent, wins: wins)
        continue
      }
      // Screen space: coverage by the fill rule; camera space: exact plane depth.
      let columns = triangle.pointee.outline.coveredColumns(v: v, columns: box, grid: grid)
      guard let depths = buffers.depths.baseAddress, let ids = buffers.ids.baseAddress else {
        return
      }
      let end = Double(columns.upperBound)
      var sx = columns.lowerBound
      while sx < columns.upperBound {
        // Content set aside (negative depths) takes no environment sample.
        guard !skipsContent || hasOpenSample(at: rowBase + sx, depths: depths) else {
          sx += laneCount
          continue
        }
        // Lanes past the run get +∞ (the buffers are padded, `BandRenderer`).
        let t = select(
          DoubleLanes.laneIndices + Double(sx) .< end,
          triangle.pointee.depths(
            dx: grid.directionX(lanesFrom: sx, intrinsics: intrinsics), dy: dy, far: far),
          FloatLanes(repeating: .infinity))
        storeWinning(t, id: id, at: rowBase + sx, depths: depths, ids: ids, wins: wins)
        sx += laneCount
      }
    }
  }

  /// Whether any of samples i ..< i + laneCount may take a triangle: not all hold content
  /// set aside (`SampleBuffers.setContentDepthsAside`: negative depths, which no depth beats).
  /// Skipping a step without one changes nothing; it saves its coverage and depths.
  @inline(__always) private func hasOpenSample(at i: Int, depths: UnsafeMutablePointer<Float>)
    -> Bool
  {
    (UnsafeRawPointer(depths + i).loadUnaligned(as: FloatLanes.self) .>= 0).anyLane()
  }

  /// The depth test of one vector step, samples i ..< i + laneCount: `t` (+∞ where the
  /// primitive has no sample) is written with `id` where it wins. Candidates are the finite
  /// depths at or before the stored ones; without a tie among them they win outright
  /// (whole-vector stores), with one each goes to `wins` (draw order on equal depths).
  @inline(__always) private func storeWinning(
    _ t: FloatLanes, id: Int32, at i: Int, depths: UnsafeMutablePointer<Float>,
    ids: UnsafeMutablePointer<Int32>, wins: (Float, Int) -> Bool
  ) {
    let stored = UnsafeRawPointer(depths + i).loadUnaligned(as: FloatLanes.self)
    let hits = t .< .infinity
    let candidates = (t .<= stored) .& hits
    if !((t .== stored) .& hits).anyLane() {
      guard candidates.anyLane() else { return }
      UnsafeMutableRawPointer(depths + i).storeBytes(
        of: select(candidates, t, stored), as: FloatLanes.self)
      let raw = UnsafeMutableRawPointer(ids + i)
      raw.storeBytes(
        of: select(candidates, IntLanes(repeating: id), raw.loadUnaligned(as: IntLanes.self)),
        as: IntLanes.self)
    } else {
      for lane in 0..<laneCount where candidates[lane] && wins(t[lane], i + lane) {
        depths[i + lane] = t[lane]
        ids[i + lane] = id
      }
    }
  }

  /// Triangles at most this many sample columns wide are covered by testing every sample of
  /// their box in lanes (`rasterizeNarrowTriangleRow`); wider ones by bisecting each row for
  /// its covered columns (`ScreenPolygon.coveredColumns`). Both find exactly the samples
  /// `ScreenPolygon.covers` accepts, so the choice moves no bit; the lanes cost less where a
  /// box is a step or two wide (the environment's small triangles), the search where it is long.
  static let narrowTriangleColumns = 32

  /// Opaque visibility of `triangle` (draw id `id`) on one sample row (screen v, ray y `dy`)
  /// within its box columns `columns`: every sample of the box is tested by the fill rule
  /// (`ScreenPolygon.covers(u:v:)`) `laneCount` at a time, and where covered, the plane's depth
  /// is written with `id` where it `wins`, as the bisecting path does for its covered columns.
  @inline(__always) private func rasterizeNarrowTriangleRow(
    _ triangle: UnsafePointer<TrianglePrimitive>, id: Int32, columns: Range<Int>, grid: SampleGrid,
    v: Double, dy: Double, rowBase: Int, into buffers: SampleBuffers, skipsContent: Bool,
    wins: (Float, Int) -> Bool
  ) {
    guard let depths = buffers.depths.baseAddress, let ids = buffers.ids.baseAddress else {
      return
    }
    let end = Double(columns.upperBound)
    var sx = columns.lowerBound
    while sx < columns.upperBound {
      // Content set aside (negative depths) takes no environment sample.
      guard !skipsContent || hasOpenSample(at: rowBase + sx, depths: depths) else {
        sx += laneCount
        continue
      }
      let u = grid.u(lanesFrom: sx)
      // Lanes past the box are not covered (nor, then, are the padding's).
      let covered =
        triangle.pointee.outline.covers(u: u, v: v) .& (DoubleLanes.laneIndices + Double(sx) .< end)
      if covered.anyLane() {
        // Uncovered lanes get +∞, which is never a candidate.
        let t = select(
          covered,
          triangle.pointee.depths(
            dx: grid.directionX(lanesFrom: sx, intrinsics: intrinsics), dy: dy, far: far),
          FloatLanes(repeating: .infinity))
        storeWinning(t, id: id, at: rowBase + sx, depths: depths, ids: ids, wins: wins)
      }
      sx += laneCount
    }
  }

  /// Deferred shading: each sample's colour from its visible primitive or the background.
  ///
  /// Works along each sample row in runs of samples that show the same primitive (or the
  /// background), so a run's sphere, material and lighting model are looked up once. Only the
  /// sample columns `columns` of each row (all of them when nil) are shaded.
  func shadeOpaque(
    grid: SampleGrid, background: BackgroundSampler, columns: Range<Int>? = nil,
    into buffers: SampleBuffers
  ) {
    let sphereCount = Int32(spheres.count)
    let constantBackground: Bool
    if case .image = background.background {
      constantBackground = false
    } else {
      constantBackground = true
    }
    let ids = buffers.ids
    let shaded = columns ?? 0..<grid.columns
    for sy in grid.firstRow..<(grid.firstRow + grid.rowCount) {
      let v = grid.v(sy)
      let rowBase = (sy - grid.firstRow) * grid.columns
      let rowEnd = rowBase + shaded.upperBound
      let rowBackground = constantBackground ? background.rowColor(v: v) : .zero
      var batch = EnvironmentRunBatch()
      defer { flush(&batch, into: buffers) }
      var i = rowBase + shaded.lowerBound
      while i < rowEnd {
        let id = ids[i]
        let end = buffers.runEnd(from: i, limit: rowEnd)
        if id < 0 {
          if constantBackground {
            buffers.fill(i..<end, with: rowBackground)
          } else if background.copyRow(
            sy, columns: (i - rowBase)..<(end - rowBase), to: i, into: buffers)
          {
            // An image of the output's size at one sample per pixel: its bytes, as they are.
          } else {
            for j in i..<end {
              buffers.setColor(j, SIMD3<Float>(background.color(u: grid.u(j - rowBase), v: v)))
            }
          }
        } else if id < sphereCount, fastSphereMaterials[Int(id)] >= 0 {
          shadeSphereRun(
            sphere: Int(id), grid: grid, sy: sy, columns: (i - rowBase)..<(end - rowBase),
            rowBase: rowBase, into: buffers)
        } else if let uniform = uniformColor(id: id, sphereCount: sphereCount) {
          buffers.fill(i..<end, with: SIMD3<Float>(uniform))
        } else if id >= sphereCount,
          materials[triangleMaterials[Int(id - sphereCount)]].mipTextureIndex >= 0
        {
          shadeEnvironmentRun(
            triangle: Int(id - sphereCount), grid: grid, v: v, range: i..<end, rowBase: rowBase,
            batch: &batch, into: buffers)
        } else {
          for j in i..<end {
            let color = shade(
              id: id, sphereCount: sphereCount, u: grid.u(j - rowBase), v: v,
              depth: Double(buffers.depths[j]))
            buffers.setColor(j, SIMD3<Float>(color))
          }
        }
        i = end
      }
    }
  }

  /// Shades sample columns `columns` of sample row sy, all showing the uniform-scale sphere `sphere`
  /// whose material `ShadingLights.shadeSphere` handles, `laneCount` samples at a time.
  @inline(__always) private func shadeSphereRun(
    sphere: Int, grid: SampleGrid, sy: Int, columns: Range<Int>, rowBase: Int,
    into buffers: SampleBuffers
  ) {
    if lights.sphereLights.count == 1 {
      shadeSphereRun(
        sphere: sphere, grid: grid, sy: sy, columns: columns, rowBase: rowBase, into: buffers,
        lights: CollectionOfOne(lights.sphereLights[0]))
    } else {
      shadeSphereRun(
        sphere: sphere, grid: grid, sy: sy, columns: columns, rowBase: rowBase, into: buffers,
        lights: lights.sphereLights)
    }
  }

  /// `shadeSphereRun` with the frame's lights as `lights` (`ShadingLights.shadeSphere`).
  @inline(__always) private func shadeSphereRun<Lights: Collection<SphereLight>>(
    sphere: Int, grid: SampleGrid, sy: Int, columns: Range<Int>, rowBase: Int,
    into buffers: SampleBuffers, lights sphereLights: Lights
  ) {
    let material = materials[Int(fastSphereMaterials[sphere])]
    let key = fastShadingKeys[Int(fastSphereMaterials[sphere])]
    let blinn = key & 1 != 0
    let exponent = key >> 1
    let centreAndInverseRadius = fastSpheres[sphere]
    let centre = SIMD3<Float>(
      Float(centreAndInverseRadius.x), Float(centreAndInverseRadius.y),
      Float(centreAndInverseRadius.z))
    let inverseRadius = Float(centreAndInverseRadius.w)
    // Camera ray direction (x per column from `grid.rayX`, y formed in Double, then narrowed).
    let dy = Float(grid.rayY(sy))
    guard let depths = buffers.depths.baseAddress, let red = buffers.red.baseAddress,
      let green = buffers.green.baseAddress, let blue = buffers.blue.baseAddress,
      let rayX = grid.rayX.baseAddress
    else { return }
    let samples = SphereSamples(dy: dy, centre: centre, inverseRadius: inverseRadius)
    var sx = columns.lowerBound
    while sx < columns.upperBound {
      let i = rowBase + sx
      // Eight lanes even at the run's end: the buffers are padded (`BandRenderer`); lanes past
      // the run compute from other samples' depths and are not stored.
      let color = lights.shadeSphere(
        dx: UnsafeRawPointer(rayX + sx).loadUnaligned(as: FloatLanes.self),
        depth: UnsafeRawPointer(depths + i).loadUnaligned(as: FloatLanes.self), samples,
        material: material, blinn: blinn, exponent: exponent, lights: sphereLights)
      let count = columns.upperBound - sx
      if count >= laneCount {
        UnsafeMutableRawPointer(red + i).storeBytes(of: color.red, as: FloatLanes.self)
        UnsafeMutableRawPointer(green + i).storeBytes(of: color.green, as: FloatLanes.self)
        UnsafeMutableRawPointer(blue + i).storeBytes(of: color.blue, as: FloatLanes.self)
      } else {
        // A Float comparison: the integer one compiles to a lane-by-lane loop.
        let inRun = FloatLanes.laneIndices .< Float(count)
        @inline(__always) func store(_ lanes: FloatLanes, _ base: UnsafeMutablePointer<Float>) {
          let raw = UnsafeMutableRawPointer(base + i)
          let kept = raw.loadUnaligned(as: FloatLanes.self)
          raw.storeBytes(of: select(inRun, lanes, kept), as: FloatLanes.self)
        }
        store(color.red, red)
        store(color.green, green)
        store(color.blue, blue)
      }
      sx += laneCount
    }
  }

  /// Transparent primitives, back to front, depth-tested against the opaque depth (no depth
  /// writes), blended as `colour · (1 − α) + shaded · α`.
  ///
  /// `ranges` (ascending, disjoint sample columns; all of each row when nil) limit the
  /// triangles' samples; translucent spheres cover their whole rows, so a caller passes ranges
  /// only for a frame without them (`BackgroundRuns`). `rows`, for a grid of one sample row,
  /// hold each entry's `translucentRow` there (`translucentBackgroundRow`), else nil.
  func blendTransparent(
    grid: SampleGrid, within ranges: UnsafeBufferPointer<Range<Int>>? = nil,
    rows: UnsafeBufferPointer<TranslucentRow>? = nil, into buffers: SampleBuffers
  ) {
    let sphereCount = Int32(spheres.count)
    let rangeCount = ranges?.count ?? 1
    /// Range k of `ranges` (the whole row without them).
    @inline(__always) func range(_ k: Int) -> Range<Int> { ranges?[k] ?? 0..<grid.columns }
    for (position, entry) in transparent.enumerated() {
      let alpha = materials[entry.material].opacity
      if entry.isSphere {
        if sphereReferencePaths {
          blendTranslucentSphereReference(entry, grid: grid, into: buffers)
        } else {
          blendTranslucentSphere(entry, grid: grid, into: buffers)
        }
      } else {
        let triangle = triangles[entry.index]
        let outline = triangle.outline
        let material = materials[entry.material]
        // Constant-lit untextured: blend a precomputed colour (same operations, same bits).
        let keep = Float(1 - alpha)
        let premultiplied = SIMD3<Float>(material.uniform * alpha)
        for sy in grid.rows(minV: outline.minV, maxV: outline.maxV) {
          let v = grid.v(sy)
          let rowBase = (sy - grid.firstRow) * grid.columns
          switch rows?[position] ?? translucentRow(triangle, material: material, grid: grid, sy: sy)
          {
          case .none:
            continue
          case .uniform(let columns, let nearest, let farthest):
            // The plane's depths at sample columns sx ..< sx + laneCount (+∞ where it has
            // none). Captures no `self`: a closure passed on copies what it captures, and
            // copying the frame would retain each of its arrays.
            let (intrinsics, far, dy) = (self.intrinsics, self.far, grid.rayY(sy))
            @inline(__always) func depths(_ sx: Int) -> FloatLanes {
              triangle.depths(
                dx: grid.directionX(lanesFrom: sx, intrinsics: intrinsics), dy: dy, far: far)
            }
            for k in 0..<rangeCount {
              let part = columns.clamped(to: range(k))
              guard !part.isEmpty else { continue }
              blendUniform(
                columns: part, rowBase: rowBase, keep: keep, premultiplied: premultiplied,
                into: buffers, nearest: nearest, farthest: farthest, depths: depths)
            }
          case .perSample(let columns):
            for k in 0..<rangeCount {
              for sx in columns.clamped(to: range(k)) {
                let u = grid.u(sx)
                let i = rowBase + sx
                guard let t = triangle.depth(direction: direction(u: u, v: v)), t <= far,
                  Float(t) < buffers.depths[i]
                else { continue }
                let shaded = shade(
                  id: sphereCount + Int32(entry.index), sphereCount: sphereCount, u: u, v: v,
                  depth: t)
                buffers.setColor(
                  i,
                  SIMD3<Float>(SIMD3<Double>(buffers.color(i)) * (1 - alpha) + shaded * alpha))
              }
            }
          }
        }
      }
    }
  }

  /// How the translucent `triangle` (of `material`) covers sample row sy of `grid`.
  @inline(__always) func translucentRow(
    _ triangle: TrianglePrimitive, material: ShadingMaterial, grid: SampleGrid, sy: Int
  ) -> TranslucentRow {
    let outline = triangle.outline
    let v = grid.v(sy)
    let columns = outline.coveredColumns(
      v: v, columns: grid.columns(minU: outline.minU, maxU: outline.maxU), grid: grid)
    guard !columns.isEmpty else { return .none }
    if material.isUniform,
      let first = triangle.depth(direction: direction(u: grid.u(columns.lowerBound), v: v)),
      let last = triangle.depth(direction: direction(u: grid.u(columns.upperBound - 1), v: v)),
      first <= far, last <= far
    {
      // Along a row the computed depth h / (n · d(u)) is monotone in u (each rounded step is
      // monotone and n · d keeps its sign between the ends), and so is its rounding to Float,
      // so every depth of the row lies in [nearest, farthest] and most samples need no
      // division.
      return .uniform(
        columns: columns, nearest: Float(min(first, last)), farthest: Float(max(first, last)))
    }
    return .perSample(columns: columns)
  }

  /// Blends `premultiplied` over the samples of `columns` (one sample row at `rowBase`) that a
  /// uniform translucent primitive covers, `colour · keep + premultiplied`, `laneCount` samples per
  /// step (the buffers are padded; lanes past the run are written back unchanged). A sample is
  /// covered when its opaque depth is beyond `farthest`, never when at or before `nearest`, and
  /// in between when the primitive's own depth there (`depths(sx)` for columns sx ..< sx + laneCount,
  /// only computed then) is nearer.
  @inline(__always) private func blendUniform(
    columns: Range<Int>, rowBase: Int, keep: Float, premultiplied: SIMD3<Float>,
    into buffers: SampleBuffers, nearest: Float, farthest: Float,
    depths primitiveDepths: (Int) -> FloatLanes
  ) {
    guard let depths = buffers.depths.baseAddress, let red = buffers.red.baseAddress,
      let green = buffers.green.baseAddress, let blue = buffers.blue.baseAddress
    else { return }
    var sx = columns.lowerBound
    while sx < columns.upperBound {
      let i = rowBase + sx
      let current = UnsafeRawPointer(depths + i).loadUnaligned(as: FloatLanes.self)
      var covered = current .> farthest
      let between = (current .<= farthest) .& (current .> nearest)
      if between.anyLane() { covered = covered .| (between .& (primitiveDepths(sx) .< current)) }
      let count = columns.upperBound - sx
      if count < laneCount {
        // A Float comparison: the integer one compiles to a lane-by-lane loop.
        covered = covered .& (FloatLanes.laneIndices .< Float(count))
      }
      if covered.anyLane() {
        // Lanes in front of the plane keep their colour.
        @inline(__always) func channel(_ base: UnsafeMutablePointer<Float>, _ add: Float) {
          let raw = UnsafeMutableRawPointer(base + i)
          let color = raw.loadUnaligned(as: FloatLanes.self)
          raw.storeBytes(of: select(covered, color * keep + add, color), as: FloatLanes.self)
        }
        channel(red, premultiplied.x)
        channel(green, premultiplied.y)
        channel(blue, premultiplied.z)
      }
      sx += laneCount
    }
  }

  /// The depth output (metres) at pixel centre (u, v) showing primitive `id` (−1: none, 0) whose
  /// depth-buffer value is `stored`: the exact Double depth for triangles and non-uniform
  /// spheres, whose Float rounding could move a millimetre value of `DepthImage`; the stored
  /// value for uniform spheres, whose depth is computed in Float.
  func outputDepth(id: Int32, stored: Float, u: Double, v: Double) -> Double {
    guard id >= 0 else { return 0 }
    let sphereCount = Int32(spheres.count)
    if id >= sphereCount {
      return triangles[Int(id - sphereCount)].depth(direction: direction(u: u, v: v))
        ?? Double(stored)
    }
    let sphere = spheres[Int(id)]
    guard sphere.inverseRadius == 0 else { return Double(stored) }
    return sphere.depth(u: u, v: v, near: near, far: far) ?? Double(stored)
  }

  /// The colour of primitive `id` when its material shades every sample alike (`isUniform`),
  /// else nil.
  @inline(__always) func uniformColor(id: Int32, sphereCount: Int32) -> SIMD3<Double>? {
    let materialIndex =
      id < sphereCount ? sphereMaterials[Int(id)] : triangleMaterials[Int(id - sphereCount)]
    return materials[materialIndex].isUniform ? materials[materialIndex].uniform : nil
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
    if material.mipTextureIndex >= 0 {
      return environmentColor(
        triangle: triangle, material: material, texture: mipTextureViews[material.mipTextureIndex],
        direction: d)
    }
    guard material.textureIndex >= 0 else {
      return lights.shade(
        material, texture: nil, normal: triangle.shadingNormal, view: view, uv: .zero)
    }
    // Texture coordinates from the exact plane depth (the depth buffer holds it in Float).
    let exact = triangle.depth(direction: d) ?? t
    return lights.shade(
      material, texture: textures[material.textureIndex], normal: triangle.shadingNormal,
      view: view, uv: triangle.uv(at: d * exact))
  }
}

/// How a translucent triangle covers one sample row (`PreparedFrame.translucentRow`).
enum TranslucentRow {
  /// No sample of the row.
  case none
  /// Sample columns `columns`, uniform material: blended where the opaque depth lies beyond
  /// `farthest`, never where at or before `nearest`, and in between where the triangle's own
  /// depth is nearer (`blendUniform`).
  case uniform(columns: Range<Int>, nearest: Float, farthest: Float)
  /// Sample columns `columns`, each depth-tested and shaded on its own.
  case perSample(columns: Range<Int>)
}
