import ARSupport
import CModelReader
import Foundation

/// A model as Assimp read it, flattened: each mesh instance with its node transform applied
/// (file units, file axes), triangles only.
public struct ModelFile: Sendable {
  /// One mesh placed by one node.
  public struct Mesh: Sendable {
    /// The mesh's name (the node's when the mesh has none).
    public var name: String
    /// Index into `materials`.
    public var material: Int
    /// Vertex positions (file units and axes).
    public var positions: [SIMD3<Float>]
    /// Texture coordinates ((0, 0) top left) per vertex, or nil when the mesh has none.
    public var uvs: [SIMD2<Float>]?
    /// Three vertex indices per triangle.
    public var indices: [UInt32]
  }

  /// Where a material's base-colour texture is.
  public enum TextureSource: Sendable {
    /// A file path as written in the model (relative to the model's folder).
    case path(String)
    /// An encoded image inside the model (a `.glb` buffer view, a data URI).
    case encoded([UInt8])
    /// Decoded RGBA8 texels.
    case texels(width: Int, height: Int, pixels: [UInt8])
  }

  /// A material: base colour (glTF `baseColorFactor`, OBJ `Kd`), optional texture and the
  /// texture's wrap modes (Assimp's `aiTextureMapMode`: 0 wrap, 1 clamp, 2 mirror, 3 decal).
  public struct Material: Sendable {
    /// RGBA, 0…1, as the file gives it.
    public var baseColor: SIMD4<Float>
    /// Wrap mode along u, as Assimp's `aiTextureMapMode`.
    public var wrapU: UInt32
    /// Wrap mode along v, as Assimp's `aiTextureMapMode`.
    public var wrapV: UInt32
    /// The base-colour texture, if the material has one.
    public var texture: TextureSource?
  }

  /// The file read.
  public var path: String
  /// Files besides `path` the importer opened (glTF buffers, OBJ material libraries).
  public var extraFiles: [String]
  /// The materials, indexed by each mesh's material index.
  public var materials: [Material]
  /// The meshes, triangulated, in the file's own units and axes.
  public var meshes: [Mesh]
  /// An OBJ's `mtllib` names for which no file is beside it (Assimp goes on without them, its
  /// meshes in a default material): for a warning.
  public var missingMaterialLibraries: [String] = []
  /// An OBJ's `mtllib` names outside the model's folder (absolute, through `..`, or a link
  /// leading out), which the reader refuses to open.
  public var refusedMaterialLibraries: [String] = []

  /// Triangles of all meshes.
  public var triangleCount: Int { meshes.reduce(0) { $0 + $1.indices.count / 3 } }
}

extension ModelFile {
  /// The post-process flags handed to Assimp: Triangulate, SortByPType (points and lines
  /// removed), FlipUVs, ValidateDataStructure, JoinIdenticalVertices.
  public static var postProcessFlags: UInt32 { UInt32(arsim_model_postprocess_flags()) }

  /// Reads a `.gltf` (2.0), `.glb` (2.0) or `.obj` file through Assimp in a child process.
  ///
  /// Before Assimp sees the file it is read as any input (a regular file of at most
  /// `EnvironmentLimits.fileBytes`) and its kind checked: a `.glb` starts with `glTF` and
  /// version 2 and holds the length its header gives, a `.gltf` is JSON whose `asset.version`
  /// is 2.x, an `.obj` is text (no NUL byte). Assimp then parses it in a forked child
  /// (`CModelReader`), so a crash or hang in the parser ends the child, not the replay.
  /// - Throws: `InputError` `.missingInput` (66) for a missing or unreadable file, `.badData`
  ///   (65) naming the file for anything else: another format, Assimp's reason (quoted, at
  ///   most 120 characters), a crashed or stopped reader, more than `maximumTriangles`.
  public static func read(path: String, maximumTriangles: Int = EnvironmentLimits.triangles)
    throws -> ModelFile
  {
    let bytes = try FileIO.read(path, maximumBytes: EnvironmentLimits.fileBytes)
    try checkKind(path: path, bytes: bytes)
    var blob: UnsafeMutablePointer<UInt8>?
    var size = 0
    var message = [CChar](repeating: 0, count: 512)
    let status = arsim_model_read(
      path, UInt64(maximumTriangles), UInt64(EnvironmentLimits.fileBytes),
      EnvironmentLimits.readerSeconds, &blob, &size, &message, message.count)
    defer { free(blob) }
    let reason = String(
      decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    func fail(_ text: String) -> InputError {
      InputError(.badData, InputLocation(file: path), text)
    }
    switch status {
    case ARSIM_MODEL_OK:
      break
    case ARSIM_MODEL_REFUSED:
      // The reader's own refusal of a file outside the model's folder (printable, bounded).
      if reason.hasPrefix("it refers to '") { throw fail(reason) }
      throw fail("Assimp cannot read the model: " + InputText.quoted(reason, limit: 120))
    case ARSIM_MODEL_TOO_LARGE:
      throw fail(
        "the model has more than \(maximumTriangles) triangles after triangulation (the limit)")
    case ARSIM_MODEL_TIMED_OUT, ARSIM_MODEL_CRASHED:
      throw fail("Assimp failed on the model: " + reason)
    default:
      throw InputError(
        .missingInput, InputLocation(file: path), "cannot run the model reader: " + reason)
    }
    guard let blob else { throw fail("the model reader returned nothing") }
    var reader = BlobReader(UnsafeBufferPointer(start: blob, count: size))
    var model: ModelFile
    do {
      model = try reader.model(path: path)
    } catch {
      throw fail("the model reader's result is malformed")
    }
    if path.lowercased().hasSuffix(".obj") {
      (model.missingMaterialLibraries, model.refusedMaterialLibraries) = materialLibraries(
        objText: bytes, path: path)
    }
    return model
  }

  /// The names of an OBJ's `mtllib` lines (the rest of the line, as Assimp reads it) that the
  /// reader does not open: `missing`, no regular file of that name beside the model;
  /// `refused`, outside the model's folder (absolute, through `..`, or a link leading out).
  static func materialLibraries(objText bytes: [UInt8], path: String) -> (
    missing: [String], refused: [String]
  ) {
    let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
    var missing: [String] = []
    var refused: [String] = []
    let keyword = Array("mtllib".utf8)
    for line in bytes.split(separator: UInt8(ascii: "\n")) {
      // Only `mtllib` lines become text: a large mesh has hundreds of thousands of others.
      let start = line.firstIndex { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
      guard let start, line[start...].starts(with: keyword) else { continue }
      let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
      guard text.hasPrefix("mtllib ") || text.hasPrefix("mtllib\t") else { continue }
      let name = text.dropFirst(7).trimmingCharacters(in: .whitespacesAndNewlines)
      guard !name.isEmpty, !missing.contains(name), !refused.contains(name) else { continue }
      if name.hasPrefix("/") || name.split(separator: "/").contains("..")
        || FileIO.leadsOutside(folder + name, folder: folder.isEmpty ? "." : folder)
      {
        refused.append(name)
        continue
      }
      var isDirectory: ObjCBool = false
      let exists = FileManager.default.fileExists(
        atPath: folder + name, isDirectory: &isDirectory)
      if !exists || isDirectory.boolValue { missing.append(name) }
    }
    return (missing, refused)
  }

  /// Refuses files that are not glTF 2.0 or OBJ, before Assimp picks an importer.
  static func checkKind(path: String, bytes: [UInt8]) throws {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    let kind =
      name.split(separator: ".").count > 1
      ? name.split(separator: ".").last.map { $0.lowercased() } ?? "" : ""
    func fail(_ text: String) -> InputError {
      InputError(.badData, InputLocation(file: path), text)
    }
    switch kind {
    case "glb":
      guard bytes.count >= 12, bytes[0..<4].elementsEqual("glTF".utf8) else {
        throw fail("not a binary glTF file (no 'glTF' header)")
      }
      let version =
        UInt32(bytes[4]) | UInt32(bytes[5]) << 8 | UInt32(bytes[6]) << 16
        | UInt32(bytes[7]) << 24
      guard version == 2 else { throw fail("binary glTF version \(version); only 2 is read") }
      // The header's total length (glTF 2.0 §4.4.2): a cut file is named as one, where Assimp
      // reports an unknown format.
      let length =
        UInt64(bytes[8]) | UInt64(bytes[9]) << 8 | UInt64(bytes[10]) << 16
        | UInt64(bytes[11]) << 24
      guard length <= UInt64(bytes.count) else {
        throw fail(
          "truncated binary glTF: its header gives \(length) bytes, the file has \(bytes.count)")
      }
      // Each chunk (§4.4.3: length, type, data) must lie within that length: a lying chunk
      // length made Assimp's reader allocate it (4 GB for 0xFFFFFFFF) before failing.
      @inline(__always) func word(_ at: Int) -> UInt64 {
        UInt64(bytes[at]) | UInt64(bytes[at + 1]) << 8 | UInt64(bytes[at + 2]) << 16
          | UInt64(bytes[at + 3]) << 24
      }
      var offset: UInt64 = 12
      var chunk = 0
      while offset < length {
        guard offset + 8 <= length else {
          throw fail("binary glTF chunk \(chunk) has no complete header at byte \(offset)")
        }
        let chunkLength = word(Int(offset))
        guard offset + 8 + chunkLength <= length else {
          throw fail(
            "binary glTF chunk \(chunk) gives \(chunkLength) bytes at byte \(offset), past the "
              + "file's \(length)")
        }
        offset += 8 + chunkLength
        chunk += 1
      }
      // The first chunk is the JSON (§4.4.3.2), whose required extensions are checked as a
      // .gltf's are.
      if length >= 20, word(16) == 0x4E4F_534A {
        let json = bytes[20..<Int(20 + word(12))]
        if let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any] {
          try checkRequiredExtensions(object, fail: fail)
        }
      }
    case "gltf":
      guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
      else { throw fail("not a glTF file (not a JSON object)") }
      let given = (object["asset"] as? [String: Any])?["version"]
      if let number = given as? NSNumber {
        throw fail("glTF asset.version is the number \(number); it is a string, as \"2.0\"")
      }
      let version = given as? String
      guard let version, version.hasPrefix("2.") || version == "2" else {
        throw fail(
          "glTF asset.version \(InputText.quoted(version ?? "missing", limit: 20)); only 2.x is read"
        )
      }
      try checkRequiredExtensions(object, fail: fail)
    case "obj":
      guard !bytes.contains(0) else { throw fail("not a Wavefront OBJ text file (NUL bytes)") }
    default:
      throw fail("models must be .gltf, .glb (glTF 2.0) or .obj (Wavefront) files")
    }
  }
}

extension ModelFile {
  /// The glTF extensions a model may require (`extensionsRequired`) and still be drawn as the
  /// file means: ARSim draws base colour and its texture unlit, which is what
  /// `KHR_materials_unlit` asks for.
  public static let supportedRequiredExtensions: Set<String> = ["KHR_materials_unlit"]

  /// Refuses a glTF whose `extensionsRequired` names an extension ARSim does not draw: glTF 2.0
  /// §3.12 says such an asset must not be loaded (a compressed mesh or a transformed texture
  /// would otherwise be drawn wrong, or not at all, without a word).
  static func checkRequiredExtensions(
    _ object: [String: Any], fail: (String) -> InputError
  ) throws {
    guard let required = object["extensionsRequired"] else { return }
    guard let names = required as? [Any] else {
      throw fail("glTF extensionsRequired is not an array")
    }
    for case let name as String in names where !supportedRequiredExtensions.contains(name) {
      throw fail(
        "the model requires the glTF extension \(InputText.quoted(name, limit: 40)), which "
          + "ARSim does not draw (it draws base colour and its texture; required extensions "
          + "it reads: \(supportedRequiredExtensions.sorted().joined(separator: ", ")))")
    }
  }
}

/// Bounds-checked reads of the child's blob (layout in CModelReader.h).
struct BlobReader {
  struct Malformed: Error {}
  let bytes: UnsafeBufferPointer<UInt8>
  var offset = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  mutating func take(_ count: Int) throws -> UnsafeBufferPointer<UInt8> {
    guard count >= 0, count <= bytes.count - offset else { throw Malformed() }
    defer { offset += count }
    return UnsafeBufferPointer(rebasing: bytes[offset..<(offset + count)])
  }
  mutating func u32() throws -> UInt32 {
    let b = try take(4)
    return UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
  }
  mutating func f32() throws -> Float { Float(bitPattern: try u32()) }
  mutating func count(elementBytes: Int) throws -> Int {
    let n = Int(try u32())
    guard n <= (bytes.count - offset) / max(1, elementBytes) else { throw Malformed() }
    return n
  }
  mutating func string() throws -> String {
    String(decoding: try take(Int(try u32())), as: UTF8.self)
  }
  mutating func floats(_ n: Int) throws -> [Float] {
    let raw = try take(n * 4)
    return [Float](unsafeUninitializedCapacity: n) { buffer, initialized in
      UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(raw))
      initialized = n
    }
  }

  mutating func model(path: String) throws -> ModelFile {
    guard try take(4).elementsEqual("ARSM".utf8), try u32() == 1 else { throw Malformed() }
    var extra: [String] = []
    for _ in 0..<(try count(elementBytes: 4)) { extra.append(try string()) }
    var materials: [ModelFile.Material] = []
    for _ in 0..<(try count(elementBytes: 36)) {
      let color = SIMD4(try f32(), try f32(), try f32(), try f32())
      let wrapU = try u32()
      let wrapV = try u32()
      let kind = try u32()
      let width = Int(try u32())
      let height = Int(try u32())
      let data = Array(try take(Int(try u32())))
      var texture: ModelFile.TextureSource?
      switch kind {
      case 1: texture = .path(String(decoding: data, as: UTF8.self))
      case 2: texture = .encoded(data)
      case 3:
        guard width > 0, height > 0,
          width.multipliedReportingOverflow(by: height * 4).partialValue == data.count
        else { throw Malformed() }
        texture = .texels(width: width, height: height, pixels: data)
      default: texture = nil
      }
      materials.append(
        ModelFile.Material(baseColor: color, wrapU: wrapU, wrapV: wrapV, texture: texture))
    }
    var meshes: [ModelFile.Mesh] = []
    for _ in 0..<(try count(elementBytes: 20)) {
      let name = try string()
      let material = Int(try u32())
      let hasUVs = try u32() != 0
      let vertices = try count(elementBytes: 12)
      let triangles = try count(elementBytes: 12)
      let p = try floats(3 * vertices)
      let positions = (0..<vertices).map { SIMD3(p[3 * $0], p[3 * $0 + 1], p[3 * $0 + 2]) }
      var uvs: [SIMD2<Float>]?
      if hasUVs {
        let t = try floats(2 * vertices)
        uvs = (0..<vertices).map { SIMD2(t[2 * $0], t[2 * $0 + 1]) }
      }
      let raw = try take(12 * triangles)
      var indices = [UInt32](repeating: 0, count: 3 * triangles)
      indices.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(raw)) }
      guard material < max(1, materials.count), indices.allSatisfy({ Int($0) < vertices }) else {
        throw Malformed()
      }
      meshes.append(
        ModelFile.Mesh(
          name: name, material: material, positions: positions, uvs: uvs, indices: indices))
    }
    return ModelFile(path: path, extraFiles: extra, materials: materials, meshes: meshes)
  }
}
