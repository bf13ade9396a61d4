import ARSupport
import Foundation
import Testing

@testable import AREnvironment

@Suite("Model files through Assimp")
struct ModelFileTests {
  let fixtures = EnvironmentFixture.fixtures

  @Test(
    "BoxTextured.gltf: the 36 indices of its accessor 0 give 12 triangles, 24 vertices with uvs")
  func gltfCounts() throws {
    let model = try ModelFile.read(path: fixtures + "/BoxTextured.gltf")
    #expect(model.triangleCount == 12)
    #expect(model.meshes.count == 1)
    #expect(model.meshes[0].positions.count == 24)
    #expect(model.meshes[0].uvs?.count == 24)
    #expect(model.extraFiles == [fixtures + "/BoxTextured0.bin"])
    guard case .path(let texture) = model.materials[model.meshes[0].material].texture else {
      Issue.record("no texture path")
      return
    }
    #expect(texture == "CesiumLogoFlat.png")
    // The file's sampler: wrapS MIRRORED_REPEAT, wrapT CLAMP_TO_EDGE (Assimp 2 and 1).
    #expect(model.materials[model.meshes[0].material].wrapU == 2)
    #expect(model.materials[model.meshes[0].material].wrapV == 1)
    // The cube's corners are at ±0.5 (the file's accessor 2 min/max).
    let xs = model.meshes[0].positions.map(\.x)
    #expect(xs.min() == -0.5 && xs.max() == 0.5)
  }

  @Test("BoxTextured.glb: the same 12 triangles, the texture embedded as PNG bytes")
  func glbCounts() throws {
    let model = try ModelFile.read(path: fixtures + "/BoxTextured.glb")
    #expect(model.triangleCount == 12)
    #expect(model.extraFiles.isEmpty)
    guard case .encoded(let bytes) = model.materials[model.meshes[0].material].texture else {
      Issue.record("no embedded texture")
      return
    }
    #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
  }

  @Test("cube.obj: six quads triangulate to 12 triangles; no texture coordinates")
  func objCounts() throws {
    let model = try ModelFile.read(path: fixtures + "/cube.obj")
    #expect(model.triangleCount == 12)
    #expect(model.meshes.allSatisfy { $0.uvs == nil })
  }

  func badData(_ body: () throws -> Void) -> InputError? {
    do {
      try body()
    } catch let error as InputError {
      return error
    } catch {
      Issue.record("unexpected \(error)")
    }
    return nil
  }

  @Test("A missing model is .missingInput (66) naming it")
  func missing() throws {
    let error = badData { _ = try ModelFile.read(path: "/nonexistent/room.glb") }
    #expect(error?.kind == .missingInput)
    #expect(error?.location.file == "/nonexistent/room.glb")
  }

  @Test("A truncated .glb is .badData naming the file, the header's length and the file's")
  func truncatedGLB() throws {
    let folder = try EnvironmentFixture()
    defer { folder.remove() }
    let bytes = try FileIO.read(fixtures + "/BoxTextured.glb")
    let cut = bytes.count / 2
    let path = try folder.write("cut.glb", Array(bytes.prefix(cut)))
    let error = badData { _ = try ModelFile.read(path: path) }
    #expect(error?.kind == .badData)
    #expect(error?.location.file == path)
    // BoxTextured.glb's header length is its size (glTF 2.0 §4.4.2).
    let length = bytes[8..<12].reversed().reduce(0) { $0 << 8 | Int($1) }
    #expect(length == bytes.count)
    #expect(
      error?.reason
        == "truncated binary glTF: its header gives \(bytes.count) bytes, the file has \(cut)",
      "\(String(describing: error))")
  }

  @Test("A .glb chunk whose length passes the file's is refused before Assimp allocates it")
  func lyingChunkLength() throws {
    let folder = try EnvironmentFixture()
    defer { folder.remove() }
    let bytes = try FileIO.read(fixtures + "/BoxTextured.glb")
    // The JSON chunk's length (bytes 12…15) set to 0xFFFFFFFF, and to one byte too many.
    let jsonLength = bytes[12..<16].reversed().reduce(0) { $0 << 8 | Int($1) }
    for (name, value) in [("ff", 0xFFFF_FFFF), ("over", bytes.count - 20 + 1)] {
      var lying = bytes
      for k in 0..<4 { lying[12 + k] = UInt8((value >> (8 * k)) & 0xFF) }
      let path = try folder.write("\(name).glb", lying)
      let error = badData { _ = try ModelFile.read(path: path) }
      #expect(error?.kind == .badData)
      #expect(error?.location.file == path)
      #expect(
        error?.reason
          == "binary glTF chunk 0 gives \(value) bytes at byte 12, past the file's \(bytes.count)",
        "\(String(describing: error))")
    }
    // The true length reads (the chunks end where the header says the file does).
    #expect(jsonLength > 0)
    #expect(try ModelFile.read(path: fixtures + "/BoxTextured.glb").triangleCount == 12)
  }

  @Test("A glTF that requires an extension ARSim does not draw is refused, .gltf and .glb")
  func requiredExtensions() throws {
    let folder = try EnvironmentFixture()
    defer { folder.remove() }
    try folder.copy("BoxTextured0.bin")
    try folder.copy("CesiumLogoFlat.png")
    let text = try String(contentsOfFile: fixtures + "/BoxTextured.gltf", encoding: .utf8)
    func requiring(_ names: String) -> String {
      "{\"extensionsRequired\": [\(names)], " + text.drop { $0 != "{" }.dropFirst()
    }
    let draco = try folder.write(
      "draco.gltf", requiring(#""KHR_materials_unlit", "KHR_draco_mesh_compression""#))
    let error = badData { _ = try ModelFile.read(path: draco) }
    #expect(error?.kind == .badData)
    #expect(error?.location.file == draco)
    #expect(
      error?.reason
        == "the model requires the glTF extension 'KHR_draco_mesh_compression', which ARSim "
        + "does not draw (it draws base colour and its texture; required extensions it reads: "
        + "KHR_materials_unlit)", "\(String(describing: error))")
    let unlit = try folder.write("unlit.gltf", requiring(#""KHR_materials_unlit""#))
    #expect(try ModelFile.read(path: unlit).triangleCount == 12)
    let notArray = try folder.write(
      "x.gltf", "{\"extensionsRequired\": \"KHR_texture_transform\", " + text.dropFirst())
    #expect(
      badData { _ = try ModelFile.read(path: notArray) }?.reason
        == "glTF extensionsRequired is not an array")

    // The .glb's JSON chunk (the first, §4.4.3) with the same list, padded with spaces.
    let glb = try FileIO.read(fixtures + "/BoxTextured.glb")
    func word(_ at: Int) -> Int { glb[at..<(at + 4)].reversed().reduce(0) { $0 << 8 | Int($1) } }
    let jsonLength = word(12)
    var json = Array(#"{"extensionsRequired": ["KHR_texture_transform"], "#.utf8)
    json += glb[(20 + 1)..<(20 + jsonLength)]
    while json.count % 4 != 0 { json.append(UInt8(ascii: " ")) }
    func littleEndian(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    let rest = glb[(20 + jsonLength)...]
    var edited = Array(glb[0..<8]) + littleEndian(20 + json.count + rest.count)
    edited += littleEndian(json.count) + glb[16..<20] + json + rest
    let path = try folder.write("transform.glb", edited)
    #expect(
      badData { _ = try ModelFile.read(path: path) }?.reason.hasPrefix(
        "the model requires the glTF extension 'KHR_texture_transform'") == true)
  }

  @Test("A .glb whose chunks are corrupt is .badData with Assimp's reason, quoted and short")
  func corruptGLB() throws {
    let folder = try EnvironmentFixture()
    defer { folder.remove() }
    var bytes = try FileIO.read(fixtures + "/BoxTextured.glb")
    // The JSON chunk's first 16 bytes (after the 12-byte header and 8-byte chunk header).
    for i in 20..<36 { bytes[i] = 0x7E }
    let path = try folder.write("corrupt.glb", bytes)
    let error = badData { _ = try ModelFile.read(path: path) }
    #expect(error?.kind == .badData)
    #expect(error?.location.file == path)
    #expect(
      error?.reason.hasPrefix("Assimp cannot read the model: ") == true,
      "\(String(describing: error))")
    #expect((error?.reason.count ?? 0) < 200)
  }

  @Test("Other formats, glTF 1.0 and binary files named .obj are refused before Assimp")
  func otherKinds() throws {
    let folder = try EnvironmentFixture()
    defer { folder.remove() }
    let fbx = try folder.write("room.fbx", "Kaydara FBX Binary")
    #expect(badData { _ = try ModelFile.read(path: fbx) }?.reason.contains(".gltf, .glb") == true)
    let old = try folder.write("old.gltf", #"{"asset": {"version": "1.0"}}"#)
    #expect(badData { _ = try ModelFile.read(path: old) }?.reason.contains("only 2.x") == true)
    let number = try folder.write("number.gltf", #"{"asset": {"version": 2}}"#)
    #expect(
      badData { _ = try ModelFile.read(path: number) }?.reason
        == #"glTF asset.version is the number 2; it is a string, as "2.0""#)
    let binary = try folder.write("b.obj", [0x76, 0x20, 0, 0, 1])
    #expect(badData { _ = try ModelFile.read(path: binary) }?.reason.contains("NUL") == true)
    let notJSON = try folder.write("x.gltf", "v 1 2 3")
    #expect(badData { _ = try ModelFile.read(path: notJSON) }?.kind == .badData)
  }

  @Test("A glTF buffer outside the model's folder is not opened: the import fails")
  func bufferOutsideFolder() throws {
    let folder = try EnvironmentFixture()
    defer { folder.remove() }
    try FileManager.default.createDirectory(
      atPath: folder.directory + "/model", withIntermediateDirectories: true)
    try folder.copy("BoxTextured0.bin")
    var text = try String(contentsOfFile: fixtures + "/BoxTextured.gltf", encoding: .utf8)
    text = text.replacingOccurrences(of: "\"BoxTextured0.bin\"", with: "\"../BoxTextured0.bin\"")
    let path = try folder.write("model/BoxTextured.gltf", text)
    let error = badData { _ = try ModelFile.read(path: path) }
    #expect(error?.kind == .badData)
    #expect(error?.location.file == path)
    #expect(
      error?.reason.contains("BoxTextured0.bin', outside the model's folder") == true,
      "\(String(describing: error))")
    // An absolute URI too.
    let absolute = try folder.write(
      "model/absolute.gltf",
      text.replacingOccurrences(of: "\"../BoxTextured0.bin\"", with: "\"/etc/passwd\""))
    let outside = badData { _ = try ModelFile.read(path: absolute) }
    // Named as the file gives it, not joined to the model's folder ('model//etc/passwd').
    #expect(
      outside?.reason.contains("it refers to '/etc/passwd', outside the model's folder") == true,
      "\(String(describing: outside))")
    // The same file next to its buffer reads.
    try folder.copy("BoxTextured.gltf")
    #expect(try ModelFile.read(path: folder.directory + "/BoxTextured.gltf").triangleCount == 12)
  }

  @Test("A glTF buffer URI is percent-decoded (RFC 3986); an escaped '..' is still refused")
  func bufferPercentEscapes() throws {
    let folder = try EnvironmentFixture()
    defer { folder.remove() }
    try FileManager.default.createDirectory(
      atPath: folder.directory + "/model", withIntermediateDirectories: true)
    try folder.copy("CesiumLogoFlat.png")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: fixtures + "/BoxTextured0.bin"))
    try bytes.write(to: URL(fileURLWithPath: folder.directory + "/box data.bin"))
    try bytes.write(to: URL(fileURLWithPath: folder.directory + "/lit%20eral.bin"))
    let text = try String(contentsOfFile: fixtures + "/BoxTextured.gltf", encoding: .utf8)
    func model(_ name: String, uri: String, in sub: String = "") throws -> String {
      try folder.write(
        sub + name,
        text.replacingOccurrences(of: "\"BoxTextured0.bin\"", with: "\"\(uri)\""))
    }
    // 'box%20data.bin' names the file 'box data.bin' (Assimp opened it as written: 65).
    #expect(
      try ModelFile.read(path: model("escaped.gltf", uri: "box%20data.bin")).triangleCount == 12)
    // A file whose name holds the escape itself is read as written.
    #expect(
      try ModelFile.read(path: model("literal.gltf", uri: "lit%20eral.bin")).triangleCount == 12)
    // '%2E%2E/' is '../': refused as outside the folder, however it is spelled.
    let escapedParent = try model(
      "up.gltf", uri: "%2E%2E/box%20data.bin", in: "model/")
    let error = badData { _ = try ModelFile.read(path: escapedParent) }
    #expect(error?.kind == .badData)
    #expect(
      error?.reason.contains("outside the model's folder") == true, "\(String(describing: error))")
    // A malformed escape is not decoded: the name as written is missing.
    let malformed = badData {
      _ = try ModelFile.read(path: model("bad.gltf", uri: "box%2data.bin"))
    }
    #expect(
      malformed?.reason.contains("it refers to 'box%2data.bin', which cannot be opened") == true,
      "\(String(describing: malformed))")
  }

  @Test("A glTF buffer through a link leading out of the folder is refused; a missing one named")
  func bufferLinkAndMissing() throws {
    let folder = try EnvironmentFixture()
    defer { folder.remove() }
    try FileManager.default.createDirectory(
      atPath: folder.directory + "/model/sub", withIntermediateDirectories: true)
    try folder.copy("BoxTextured0.bin")
    try FileManager.default.createSymbolicLink(
      atPath: folder.directory + "/model/link.bin",
      withDestinationPath: folder.directory + "/BoxTextured0.bin")
    let text = try String(contentsOfFile: fixtures + "/BoxTextured.gltf", encoding: .utf8)
    let linked = try folder.write(
      "model/linked.gltf",
      text.replacingOccurrences(of: "\"BoxTextured0.bin\"", with: "\"link.bin\""))
    let error = badData { _ = try ModelFile.read(path: linked) }
    #expect(
      error?.reason.contains("link.bin', outside the model's folder") == true,
      "\(String(describing: error))")
    // A buffer below the folder that does not exist: named as missing, not as outside.
    let missing = try folder.write(
      "model/missing.gltf",
      text.replacingOccurrences(of: "\"BoxTextured0.bin\"", with: "\"sub/none.bin\""))
    let absent = badData { _ = try ModelFile.read(path: missing) }
    #expect(absent?.kind == .badData)
    #expect(
      absent?.reason.contains(
        "it refers to 'sub/none.bin', which cannot be opened (No such file or directory)") == true,
      "\(String(describing: absent))")
    // A FIFO where the buffer should be: named as it is written, with why it is refused.
    #expect(mkfifo(folder.directory + "/model/fifo.bin", 0o600) == 0)
    let piped = try folder.write(
      "model/piped.gltf",
      text.replacingOccurrences(of: "\"BoxTextured0.bin\"", with: "\"fifo.bin\""))
    let fifo = badData { _ = try ModelFile.read(path: piped) }
    #expect(
      fifo?.reason.contains("it refers to 'fifo.bin', which cannot be opened (not a regular file)")
        == true,
      "\(String(describing: fifo))")
    // A link that stays inside the folder reads.
    try FileManager.default.moveItem(
      atPath: folder.directory + "/BoxTextured0.bin",
      toPath: folder.directory + "/model/sub/BoxTextured0.bin")
    try FileManager.default.createSymbolicLink(
      atPath: folder.directory + "/model/inside.bin", withDestinationPath: "sub/BoxTextured0.bin")
    let inside = try folder.write(
      "model/inside.gltf",
      text.replacingOccurrences(of: "\"BoxTextured0.bin\"", with: "\"inside.bin\""))
    #expect(try ModelFile.read(path: inside).triangleCount == 12)
  }

  @Test("Over the triangle limit: refused with the limit named")
  func overLimit() throws {
    let error = badData {
      _ = try ModelFile.read(path: fixtures + "/BoxTextured.glb", maximumTriangles: 11)
    }
    #expect(error?.reason.contains("more than 11 triangles") == true)
  }

  @Test("Garbage bytes in a .glb after a valid header never crash the replay")
  func garbageGLB() throws {
    let folder = try EnvironmentFixture()
    defer { folder.remove() }
    var generator = SystemRandomNumberGenerator()
    let original = try FileIO.read(fixtures + "/BoxTextured.glb")
    for round in 0..<8 {
      var bytes = original
      for _ in 0..<64 {
        bytes[Int.random(in: 12..<bytes.count, using: &generator)] = UInt8.random(
          in: 0...255, using: &generator)
      }
      let path = try folder.write("g\(round).glb", bytes)
      do {
        _ = try ModelFile.read(path: path)
      } catch let error as InputError {
        #expect(error.kind == .badData)
        #expect(error.location.file == path)
      }
    }
  }
}
