import ARMath
import ARRender
import ARRenderCore
import ARScene
import ARSession
import ARSupport

/// Collects the triangles, materials and findings of an environment section.
struct EnvironmentBuilder {
  let section: SceneSection
  var positions: [SIMD3<Double>] = []
  var uvs: [SIMD2<Double>] = []
  var materialIndices: [Int32] = []
  var materials: [EnvironmentMaterial] = []
  var parts: [Environment.Part] = []
  var inputPaths: [String] = []
  var warnings: [String] = []
  /// Decoded textures by resolved path (a file used twice is read once).
  var textures: [String: Texture] = [:]
  /// Mip chains by resolved path and wrap modes: primitives sharing a texture file share one
  /// chain (one per primitive took 3.5 GB for 5 000 small planes of one 512 × 256 texture).
  var mipChains: [String: MipmappedTexture] = [:]
  /// Models by resolved path: a file listed many times is parsed once (each parse is a child
  /// process).
  var models: [String: ModelFile] = [:]
  /// Each model's materials with their textures (embedded ones included), by resolved path.
  var modelMaterials: [String: [EnvironmentMaterial]] = [:]
  var texelCount = 0

  init(section: SceneSection) { self.section = section }

  func error(_ field: String, _ reason: String) -> InputError { section.error(field, reason) }

  func vector(_ values: [Double]?, field: String, default fallback: Vector3 = .zero) throws
    -> Vector3
  {
    guard let values else { return fallback }
    guard values.count == 3, values.allSatisfy(\.isFinite) else {
      throw error(field, "expected 3 finite numbers")
    }
    return Vector3(values[0], values[1], values[2])
  }

  /// World from local: translation · SceneKit Euler rotation · uniform scale.
  func placement(position: [Double]?, eulerAngles: [Double]?, scale: Double, field: String)
    throws -> Matrix4
  {
    let node = Node()
    node.position = try vector(position, field: field + ".position")
    node.eulerAngles = try vector(eulerAngles, field: field + ".eulerAngles")
    node.scale = Vector3(scale, scale, scale)
    return node.transform
  }

  mutating func addModel(_ spec: EnvironmentSpec.ModelSpec, field: String) throws {
    let path = try section.resolvePath(spec.path, field: field + ".path")
    let scale = spec.scale ?? 1
    guard scale.isFinite, scale > 0 else { throw error(field + ".scale", "expected a number > 0") }
    let unit = try section.choice(spec.unit, LengthUnit.self, field: field + ".unit") ?? .m
    let up = try section.choice(spec.up, UpAxis.self, field: field + ".up") ?? .y
    var world = try placement(
      position: spec.position, eulerAngles: spec.eulerAngles, scale: scale * unit.metres,
      field: field)
    if up == .z {
      // File +Z up → world +Y up: a −90° turn about X (file +Y becomes world −Z).
      world = world * Matrix4(rowMajor: [1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1])
    }
    let model: ModelFile
    if let known = models[path] {
      model = known
    } else {
      model = try section.reading(path, field: field + ".path") { try ModelFile.read(path: path) }
      models[path] = model
    }
    guard materialIndices.count + model.triangleCount <= EnvironmentLimits.triangles else {
      throw error(
        field + ".path",
        "with this model's \(model.triangleCount) triangles the environment passes the limit of "
          + "\(EnvironmentLimits.triangles) triangles (\(materialIndices.count) before it)")
    }
    inputPaths.append(path)
    inputPaths += model.extraFiles
    for library in model.refusedMaterialLibraries {
      warnings.append(
        "\(InputText.escaped(path)): its material library \(InputText.quoted(library, limit: 60)) "
          + "is outside the model's folder (absolute, '..' or a link leading out) and was not "
          + "read; its meshes are drawn in the default material")
    }
    for library in model.missingMaterialLibraries {
      warnings.append(
        "\(InputText.escaped(path)): its material library \(InputText.quoted(library, limit: 60)) "
          + "is missing; its meshes are drawn in the default material")
    }
    let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
    // Model materials → environment materials (a textured one without uvs gets an untextured
    // twin).
    var materialBase: [Int] = []
    var untextured: [Int: Int] = [:]
    var converted: [EnvironmentMaterial] = []
    if let known = modelMaterials[path] {
      converted = known
    } else {
      for material in model.materials {
        // A texture's errors name the model field too: the model named the texture.
        let scene = section
        let texture = try material.texture.map { source in
          try scene.reading(path, field: field + ".path") {
            try modelTexture(
              source, model: path, folder: folder, wrapU: material.wrapU, wrapV: material.wrapV)
          }
        }
        let color = material.baseColor
        converted.append(
          EnvironmentMaterial(
            baseColor: Color(red: Double(color.x), green: Double(color.y), blue: Double(color.z)),
            texture: texture))
      }
      modelMaterials[path] = converted
    }
    for material in converted {
      materialBase.append(materials.count)
      materials.append(material)
    }
    if materialBase.isEmpty {
      materialBase.append(materials.count)
      materials.append(EnvironmentMaterial())
    }
    let first = materialIndices.count
    var dropped = 0
    var degenerate = 0
    for mesh in model.meshes {
      var material = materialBase[min(mesh.material, materialBase.count - 1)]
      if mesh.uvs == nil, materials[material].texture != nil {
        warnings.append(
          "\(InputText.escaped(path)): mesh \(InputText.quoted(mesh.name, limit: 40)) has a texture but no texture "
            + "coordinates; drawn in its base colour")
        if let twin = untextured[material] {
          material = twin
        } else {
          untextured[material] = materials.count
          materials.append(EnvironmentMaterial(baseColor: materials[material].baseColor))
          material = materials.count - 1
        }
      }
      var badUVs = false
      for t in stride(from: 0, to: mesh.indices.count, by: 3) {
        var corners: [SIMD3<Double>] = []
        var cornerUVs: [SIMD2<Double>] = []
        for k in 0..<3 {
          let index = Int(mesh.indices[t + k])
          let p = mesh.positions[index]
          let w = world.transformPoint(Vector3(Double(p.x), Double(p.y), Double(p.z)))
          corners.append(SIMD3(w.x, w.y, w.z))
          var uv = mesh.uvs.map { SIMD2<Double>($0[index]) } ?? .zero
          if !(uv.x.isFinite && uv.y.isFinite) {
            uv = .zero
            badUVs = true
          }
          cornerUVs.append(uv)
        }
        let limit = EnvironmentLimits.coordinate
        guard
          corners.allSatisfy({
            $0.x.isFinite && $0.y.isFinite && $0.z.isFinite
              && abs($0.x) <= limit && abs($0.y) <= limit && abs($0.z) <= limit
          })
        else {
          dropped += 1
          continue
        }
        let e1 = corners[1] - corners[0]
        let e2 = corners[2] - corners[0]
        let n = SIMD3(
          e1.y * e2.z - e1.z * e2.y, e1.z * e2.x - e1.x * e2.z, e1.x * e2.y - e1.y * e2.x)
        guard (n * n).sum() > 0 else {
          degenerate += 1
          continue
        }
        positions += corners
        uvs += cornerUVs
        materialIndices.append(Int32(material))
      }
      if badUVs {
        warnings.append(
          "\(InputText.escaped(path)): mesh \(InputText.quoted(mesh.name, limit: 40)) has non-finite texture "
            + "coordinates; read as (0, 0)")
      }
    }
    if dropped > 0 {
      warnings.append(
        "\(InputText.escaped(path)): \(dropped) triangle(s) with non-finite corners or corners beyond "
          + "\(Int(EnvironmentLimits.coordinate / 1000)) km dropped")
    }
    if degenerate > 0 {
      warnings.append(
        "\(InputText.escaped(path)): \(degenerate) degenerate (zero-area) triangle(s) dropped")
    }
    parts.append(Environment.Part(name: path, triangles: first..<materialIndices.count))
  }

  /// A model's texture: a file next to the model (named without `..`, not absolute), or
  /// bytes inside it; PNG only.
  mutating func modelTexture(
    _ source: ModelFile.TextureSource, model: String, folder: String, wrapU: UInt32, wrapV: UInt32
  ) throws -> MipmappedTexture {
    // Assimp's aiTextureMapMode: 0 wrap, 1 clamp, 2 mirror (3, decal, reads as clamp).
    func wrap(_ mode: UInt32) -> TextureWrap {
      mode == 2 ? .mirroredRepeat : mode == 1 || mode == 3 ? .clamp : .repeat
    }
    let texture: Texture
    switch source {
    case .path(let written):
      let name = written.removingPercentEscapes
      // An empty image (an empty uri, data URI or buffer view) would name the folder itself.
      guard !name.isEmpty else {
        throw InputError(
          .badData, InputLocation(file: model), "a material's texture image is empty")
      }
      guard !name.hasPrefix("/"), !name.contains("\\"), !name.contains(":"),
        !name.split(separator: "/").contains("..")
      else {
        throw InputError(
          .badData, InputLocation(file: model),
          "texture \(InputText.quoted(written, limit: 60)) must be a relative path below the "
            + "model's folder")
      }
      let path = folder.isEmpty ? name : folder + "/" + name
      // A link below the folder may not lead out of it (Documentation/Environments.md).
      guard !FileIO.leadsOutside(path, folder: folder.isEmpty ? "." : folder) else {
        throw InputError(
          .badData, InputLocation(file: model),
          "texture \(InputText.quoted(written, limit: 60)) is a link leading outside the "
            + "model's folder; refused")
      }
      // Named with the model whose material (or OBJ material library) gives the name.
      guard FileIO.exists(path) else {
        throw InputError(
          .missingInput, InputLocation(file: path),
          "no such file; a material of \(InputText.quotedPath(model)) names it as its texture")
      }
      return try mipmapped(textureFile(path), path: path, wrapU: wrap(wrapU), wrapV: wrap(wrapV))
    case .encoded(let bytes):
      texture = try decodeTexture(bytes, file: model + " (embedded texture)")
    case .texels(let width, let height, let pixels):
      guard let t = Texture(width: width, height: height, pixels: pixels) else {
        throw InputError(.badData, InputLocation(file: model), "malformed embedded texture")
      }
      texture = try counted(t, file: model)
    }
    return MipmappedTexture(texture, wrapU: wrap(wrapU), wrapV: wrap(wrapV))
  }

  /// The mip chain of the texture file at `path` with these wrap modes, built once.
  mutating func mipmapped(
    _ texture: Texture, path: String, wrapU: TextureWrap, wrapV: TextureWrap
  ) -> MipmappedTexture {
    let key = "\(wrapU.rawValue) \(wrapV.rawValue) \(path)"
    if let known = mipChains[key] { return known }
    let chain = MipmappedTexture(texture, wrapU: wrapU, wrapV: wrapV)
    mipChains[key] = chain
    return chain
  }

  /// A PNG file, read once.
  mutating func textureFile(_ path: String) throws -> Texture {
    if let known = textures[path] { return known }
    let bytes = try FileIO.read(path, maximumBytes: EnvironmentLimits.fileBytes)
    let texture = try decodeTexture(bytes, file: path)
    textures[path] = texture
    inputPaths.append(path)
    return texture
  }

  mutating func decodeTexture(_ bytes: [UInt8], file: String) throws -> Texture {
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47]
    let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF]
    if bytes.starts(with: jpeg) {
      throw InputError(
        .badData, InputLocation(file: file),
        "JPEG textures are not read (no bundled model needs them): convert it to PNG")
    }
    guard bytes.starts(with: png) else {
      throw InputError(.badData, InputLocation(file: file), "not a PNG texture")
    }
    // The header's size first: a huge image is refused before it is decoded.
    if bytes.count >= 24 {
      let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
      let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
      try checkSize(width: width, height: height, file: file)
      // And the textures' total, before hundreds of MB are decoded only to be refused.
      try checkTotal(adding: width * height, file: file)
    }
    let image: Image
    do {
      image = try Image(pngData: bytes, file: file)
    } catch let error as any LocatedError {
      throw InputError(.badData, InputLocation(file: file), error.reason)
    }
    guard let texture = image.texture else {
      throw InputError(.badData, InputLocation(file: file), "empty texture")
    }
    return try counted(texture, file: file)
  }

  func checkSize(width: Int, height: Int, file: String) throws {
    let side = EnvironmentLimits.textureSide
    guard width <= side, height <= side else {
      throw InputError(
        .badData, InputLocation(file: file),
        "texture of \(width) × \(height) texels is over the limit of \(side) per side")
    }
  }

  mutating func counted(_ texture: Texture, file: String) throws -> Texture {
    try checkSize(width: texture.width, height: texture.height, file: file)
    try checkTotal(adding: texture.width * texture.height, file: file)
    texelCount += texture.width * texture.height
    return texture
  }

  /// Refuses a texture of `texels` that would take the environment's textures past
  /// `EnvironmentLimits.textureTexels` together.
  func checkTotal(adding texels: Int, file: String) throws {
    guard texelCount + texels <= EnvironmentLimits.textureTexels else {
      throw InputError(
        .badData, InputLocation(file: file),
        "the environment's textures pass the limit of \(EnvironmentLimits.textureTexels >> 20) Mi "
          + "texels together")
    }
  }

  mutating func addPrimitive(_ spec: EnvironmentSpec.PrimitiveSpec, field: String) throws {
    // A primitive is typed into the scene file: past the models' corner limit it is a mistake,
    // refused, where a model's far triangles are dropped with a warning.
    let limit = EnvironmentLimits.coordinate
    let limitText = "\(Int(limit / 1000)) km"
    let corners: [ShapeTriangles.Corner]
    switch (spec.box, spec.plane) {
    case (let box?, nil):
      guard
        [box.width, box.height, box.length].allSatisfy({ $0.isFinite && $0 > 0 && $0 <= limit })
      else {
        throw error(field + ".box", "width, height and length must be > 0 and ≤ \(limitText)")
      }
      corners = ShapeTriangles.corners(
        of: .box(Box(width: box.width, height: box.height, length: box.length)))
    case (nil, let plane?):
      guard [plane.width, plane.height].allSatisfy({ $0.isFinite && $0 > 0 && $0 <= limit })
      else {
        throw error(field + ".plane", "width and height must be > 0 and ≤ \(limitText)")
      }
      corners = ShapeTriangles.corners(of: .plane(Plane(width: plane.width, height: plane.height)))
    default:
      throw error(field, "give exactly one of box, plane")
    }
    let world = try placement(
      position: spec.position, eulerAngles: spec.eulerAngles, scale: 1, field: field)
    var material = EnvironmentMaterial()
    var repeats = SIMD2<Double>(1, 1)
    if let m = spec.material {
      let f = field + ".material"
      if let c = m.color {
        guard c.count == 3, c.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }) else {
          throw error(f + ".color", "expected [r, g, b] with values 0…1")
        }
        material.baseColor = Color(red: c[0], green: c[1], blue: c[2])
      }
      if let r = m.repeats {
        guard r.count == 2, r.allSatisfy({ $0.isFinite && $0 > 0 && $0 <= 1_000_000 }) else {
          throw error(f + ".repeats", "expected [u, v], each > 0 and ≤ 1000000")
        }
        repeats = SIMD2(r[0], r[1])
      }
      let wrap = try section.choice(m.wrap, TextureWrap.self, field: f + ".wrap") ?? .repeat
      if m.texture == nil {
        for (name, given) in [("repeats", m.repeats != nil), ("wrap", m.wrap != nil)] where given {
          warnings.append("\(f).\(name) has no effect without a texture")
        }
      }
      if let t = m.texture {
        let path = try section.resolvePath(t, field: f + ".texture")
        let texture = try section.reading(path, field: f + ".texture") { try textureFile(path) }
        material.texture = mipmapped(texture, path: path, wrapU: wrap, wrapV: wrap)
      }
    }
    let placed = corners.map { world.transformPoint(Vector3($0.0.x, $0.0.y, $0.0.z)) }
    guard placed.allSatisfy({ abs($0.x) <= limit && abs($0.y) <= limit && abs($0.z) <= limit })
    else {
      throw error(
        field + ".position", "the primitive reaches farther than \(limitText) from the origin")
    }
    let first = materialIndices.count
    guard first + corners.count / 3 <= EnvironmentLimits.triangles else {
      throw error(
        field, "the environment passes the limit of \(EnvironmentLimits.triangles) triangles")
    }
    materials.append(material)
    for (w, (_, uv)) in zip(placed, corners) {
      positions.append(SIMD3(w.x, w.y, w.z))
      uvs.append(uv * repeats)
    }
    for _ in 0..<(corners.count / 3) { materialIndices.append(Int32(materials.count - 1)) }
    parts.append(
      Environment.Part(
        name: spec.name ?? field, triangles: first..<materialIndices.count))
  }

  func finish(lit: Bool, occludes: Bool) throws -> Environment {
    guard
      let geometry = EnvironmentGeometry(
        positions: positions, uvs: uvs, materialIndices: materialIndices, materials: materials,
        isLit: lit, occludes: occludes)
    else { throw error("environment", "internal inconsistency in the environment's triangles") }
    return Environment(
      geometry: geometry, parts: parts, inputPaths: inputPaths, warnings: warnings)
  }
}

/// `environment.models[].unit`: metres per file unit.
enum LengthUnit: String, CaseIterable {
  case m, cm, mm
  case inch = "in"
  case ft
  var metres: Double {
    switch self {
    case .m: 1
    case .cm: 0.01
    case .mm: 0.001
    case .inch: 0.0254
    case .ft: 0.3048
    }
  }
}

/// `environment.models[].up`.
enum UpAxis: String, CaseIterable {
  case y, z
}

extension String {
  /// The string with `%XX` escapes decoded (glTF URIs are URI-encoded); invalid escapes stay.
  var removingPercentEscapes: String {
    var bytes: [UInt8] = []
    let utf8 = Array(self.utf8)
    var i = 0
    while i < utf8.count {
      if utf8[i] == UInt8(ascii: "%"), i + 2 < utf8.count,
        let value = UInt8(String(decoding: utf8[(i + 1)...(i + 2)], as: UTF8.self), radix: 16)
      {
        bytes.append(value)
        i += 3
      } else {
        bytes.append(utf8[i])
        i += 1
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
