import ARMath
import ARRenderCore
import ARScene

/// One primitive in drawing order: a sphere or a triangle, by index into `PreparedFrame`.
struct DrawEntry: Sendable {
  var isSphere: Bool
  /// Index into `spheres` or `triangles`.
  var index: Int
  /// Index into `materials`.
  var material: Int
}

/// A `RenderList` transformed into camera space for one camera: prepared primitives in drawing
/// order, flattened materials and camera-space lights. Built once per frame, read by all
/// threads.
struct PreparedFrame: Sendable {
  var intrinsics: CameraIntrinsics
  var near: Double
  var far: Double
  var spheres: [SpherePrimitive] = []
  var triangles: [TrianglePrimitive] = []
  var materials: [ShadingMaterial] = []
  /// Textures of the materials that have one.
  var textures: [Texture] = []
  /// Mip-mapped textures of environment materials (`ShadingMaterial.mipTextureIndex`), with
  /// their shapes and views below (`appendMipTexture` adds to all three).
  var mipTextures: [MipmappedTexture] = []
  /// Each of `mipTextures`' level-0 size and wrap modes, read per shaded run without touching
  /// the texture's arrays (reference counting).
  var mipTextureShapes: [TextureShape] = []
  /// Each of `mipTextures` by pointer (`MipmappedTexture.view`; `mipTextures` keeps them
  /// valid): the shading loops read a view per run without reference counting.
  var mipTextureViews: [TextureView] = []
  /// The first `environmentEntryCount` entries of `opaque` are the environment's triangles
  /// (drawn first, `rasterizeOpaque`).
  var environmentEntryCount = 0
  /// Whether the environment's depth hides virtual content (`EnvironmentGeometry.occludes`).
  var environmentOccludes = false
  /// The distance between neighbouring samples in pixels (1/N): the texture footprint of a
  /// sample for mip-level selection.
  var sampleSpacing = 1.0
  /// Material index of each sphere and of each triangle.
  var sphereMaterials: [Int] = []
  var triangleMaterials: [Int] = []
  /// Opaque primitives in list order (equal depths: the first drawn wins).
  var opaque: [DrawEntry] = []
  /// Position of each opaque primitive in list order, by id (spheres first, then triangles
  /// offset by the sphere count; −1 for transparent ones): equal depths resolve to the earlier
  /// primitive whatever order `opaque` is drawn in.
  var drawOrder: [Int32] = []
  /// Transparent primitives, items sorted back to front by the view depth of their node origin
  /// (ties in list order).
  var transparent: [DrawEntry] = []
  var lights: ShadingLights
  /// Per sphere, for the shading fast path (`ShadingLights.shadeSphere`): camera-space centre
  /// and 1 / radius (x, y, z, w), and the material index, or −1 when the sphere is not of
  /// uniform scale or its material is not `isFastSphere` (or is uniform).
  var fastSpheres: [SIMD4<Double>] = []
  /// Per sphere, the camera-space constants of the Float visibility path (meaningful where
  /// `inverseRadius > 0`).
  var uniformSpheres: [UniformSphere] = []
  var fastSphereMaterials: [Int32] = []
  /// Per material: `2 · wholeShininess + 1` for blinn, `0` for lambert (what one
  /// `ShadingLights.shadeSphere` call needs); meaningful where `isFastSphere`.
  var fastShadingKeys: [Int] = []
  /// Whether the spheres take their one-sample reference paths (tests): translucent spheres
  /// blended by `blendTranslucentSphereReference` instead of `laneCount` at a time, and
  /// near-plane-cut uniform spheres' depths by `UniformSphereRow.clipReference`.
  var sphereReferencePaths = false

  init(_ list: RenderList, camera: Camera, sphereReferencePaths: Bool = false) {
    self.sphereReferencePaths = sphereReferencePaths
    triangles = TriangleStorage.take()
    intrinsics = camera.intrinsics
    near = camera.near
    far = camera.far
    let cameraFromWorld = camera.cameraFromWorld
    let cameraFromWorldMatrix = cameraFromWorld.matrix
    var towardLights: [SIMD3<Double>] = []
    var colors: [SIMD3<Double>] = []
    for light in list.directionalLights {
      let d = cameraFromWorld.transformDirection(light.direction)
      guard let unit = d.normalized, unit.isFinite else { continue }
      towardLights.append(SIMD3(-unit.x, -unit.y, -unit.z))
      colors.append(light.color)
    }
    lights = ShadingLights(towardLights: towardLights, colors: colors, ambient: list.ambient)

    if let environment = list.environment {
      // The camera image is seen from the true camera where tracking has one apart.
      let environmentCameraFromWorld =
        list.environmentWorldFromCamera.map { $0.inverse.matrix } ?? cameraFromWorldMatrix
      prepareEnvironment(environment, cameraFromWorld: environmentCameraFromWorld)
    }
    var transparentItems: [(depth: Double, order: Int, entries: [DrawEntry])] = []
    // Sized once: B2's 10 000 spheres would otherwise regrow each array a dozen times.
    let itemCount = list.items.count
    spheres.reserveCapacity(itemCount)
    sphereMaterials.reserveCapacity(itemCount)
    materials.reserveCapacity(itemCount)
    opaque.reserveCapacity(itemCount)
    var transparentEntries: [DrawEntry] = []
    for (order, item) in list.items.enumerated() {
      let cameraFromNode = cameraFromWorldMatrix * item.worldFromNode
      guard cameraFromNode.isFinite else { continue }
      var material = ShadingMaterial(item.material, opacity: item.opacity)
      // Opaque entries go straight into `opaque` (no array per item); transparent ones are
      // kept per item for the back-to-front sort.
      let isOpaque = !(item.opacity < 1)
      let opaqueStart = opaque.count
      transparentEntries.removeAll(keepingCapacity: true)
      switch item.shape {
      case .sphere(let sphere):
        // Spheres carry no texture coordinates: their textures are ignored.
        if let prepared = SpherePrimitive(
          radius: sphere.radius, cameraFromNode: cameraFromNode, intrinsics: intrinsics,
          near: near, far: far)
        {
          let entry = DrawEntry(isSphere: true, index: spheres.count, material: materials.count)
          if isOpaque { opaque.append(entry) } else { transparentEntries.append(entry) }
          spheres.append(prepared)
          sphereMaterials.append(materials.count)
        }
      case .box, .plane:
        if let texture = item.material.diffuseTexture {
          material.textureIndex = textures.count
          textures.append(texture)
        }
        for (a, b, c) in TrianglePrimitive.localTriangles(of: item.shape) {
          func toCamera(_ vertex: TriangleVertex) -> TriangleVertex {
            let p = cameraFromNode.transformPoint(
              Vector3(vertex.position.x, vertex.position.y, vertex.position.z))
            return TriangleVertex(position: SIMD3(p.x, p.y, p.z), uv: vertex.uv)
          }
          if let prepared = TrianglePrimitive(
            toCamera(a), toCamera(b), toCamera(c), doubleSided: item.material.isDoubleSided,
            intrinsics: intrinsics, near: near)
          {
            let entry = DrawEntry(
              isSphere: false, index: triangles.count, material: materials.count)
            if isOpaque { opaque.append(entry) } else { transparentEntries.append(entry) }
            triangles.append(prepared)
            triangleMaterials.append(materials.count)
          }
        }
      }
      guard opaque.count > opaqueStart || !transparentEntries.isEmpty else { continue }
      materials.append(material)
      if !isOpaque {
        let depth = -cameraFromNode.columns.3.z
        transparentItems.append((depth, order, transparentEntries))
      }
    }
    // Draw opaque primitives near to far (triangles first: few, and often large occluders), so
    // more samples fail the cheap minimum-depth test; `drawOrder` keeps list-order tie-breaks.
    drawOrder = [Int32](repeating: -1, count: spheres.count + triangles.count)
    for (position, entry) in opaque.enumerated() {
      drawOrder[entry.isSphere ? entry.index : spheres.count + entry.index] = Int32(position)
    }
    // Keys looked up once, positions sorted (the comparisons, hence the order, are the same).
    let keys = opaque.map { $0.isSphere ? spheres[$0.index].minDepth : -.infinity }
    let nearFirst = keys.withUnsafeBufferPointer { key in
      opaque.indices.sorted { a, b in key[a] < key[b] || (key[a] == key[b] && a < b) }
    }
    opaque = nearFirst.map { opaque[$0] }
    for i in materials.indices {
      if let color = materials[i].uniformColor {
        materials[i].isUniform = true
        materials[i].uniform = color
      }
    }
    fastShadingKeys = materials.map {
      $0.lightingModel == .blinn ? 2 * max(0, $0.wholeShininess) + 1 : 0
    }
    fastSpheres.reserveCapacity(spheres.count)
    uniformSpheres.reserveCapacity(spheres.count)
    fastSphereMaterials.reserveCapacity(spheres.count)
    for (sphere, material) in zip(spheres, sphereMaterials) {
      fastSpheres.append(SIMD4(sphere.centre, sphere.inverseRadius))
      uniformSpheres.append(
        UniformSphere(
          sphere, intrinsics: intrinsics, near: near, far: far,
          referenceClip: sphereReferencePaths))
      let fast =
        sphere.inverseRadius > 0 && materials[material].isFastSphere
        && !materials[material].isUniform
      fastSphereMaterials.append(fast ? Int32(material) : -1)
    }
    transparentItems.sort { ($0.depth, $1.order) > ($1.depth, $0.order) }
    transparent = transparentItems.flatMap(\.entries)
  }

  /// For each band of `bandRows` output rows (band b: rows b·bandRows …), the positions in
  /// `opaque` of the primitives whose screen bounds reach it, ascending so that the near-to-far
  /// order stays; one band of margin each side absorbs rounding (the row loops clip exactly).
  /// Binned once per frame, so a band does not scan every primitive of the frame.
  func opaqueBins(bandRows: Int, bandCount: Int) -> [[Int32]] {
    var bins = [[Int32]](repeating: [], count: bandCount)
    guard bandCount > 0 else { return bins }
    let rows = Double(bandRows)
    func band(_ v: Double) -> Int {
      let b = ((v + 0.5) / rows).rounded(.down)
      guard b.isFinite else { return b < 0 ? 0 : bandCount - 1 }
      return Int(min(max(b, 0), Double(bandCount - 1)))
    }
    for (position, entry) in opaque.enumerated() {
      let (minV, maxV) =
        entry.isSphere
        ? (spheres[entry.index].minV, spheres[entry.index].maxV)
        : (triangles[entry.index].outline.minV, triangles[entry.index].outline.maxV)
      // NaN bounds: every band (the row loops then decide).
      let first = minV.isNaN ? 0 : max(0, band(minV) - 1)
      let last = maxV.isNaN ? bandCount - 1 : min(bandCount - 1, band(maxV) + 1)
      guard first <= last else { continue }
      for b in first...last { bins[b].append(Int32(position)) }
    }
    return bins
  }

  /// The camera-space ray direction through screen point (u, v); its −z is 1, so the ray
  /// parameter is the depth.
  @inline(__always) func direction(u: Double, v: Double) -> SIMD3<Double> {
    PreparedFrame.direction(u: u, v: v, intrinsics: intrinsics)
  }

  /// `direction(u:v:)` for a camera with `intrinsics`.
  @inline(__always) static func direction(u: Double, v: Double, intrinsics: CameraIntrinsics)
    -> SIMD3<Double>
  {
    SIMD3((u - intrinsics.cx) / intrinsics.fx, -(v - intrinsics.cy) / intrinsics.fy, -1)
  }
}
