import ARRender
import ARRenderCore
import ARSession
import ARSupport
import Foundation
import Testing

@testable import AREnvironment

@Suite("Environment section loading")
struct EnvironmentLoadTests {
  func load(_ spec: String, in folder: EnvironmentFixture) throws -> Environment {
    let decoded = try JSONDecoder().decode(EnvironmentSpec.self, from: Data(spec.utf8))
    return try Environment.load(
      decoded, section: SceneSection(sceneFilePath: folder.directory + "/scene.json"))
  }

  func failure(_ body: () throws -> Void) -> InputError? {
    do { try body() } catch let error as InputError { return error } catch {
      Issue.record("unexpected \(error)")
    }
    return nil
  }

  @Test("A model's or its texture's error names the scene field that named the model")
  func namedByField() throws {
    let folder = try EnvironmentFixture()
    defer { folder.remove() }
    try folder.write("m.jsonl", "{}")
    var error = failure { _ = try load(#"{"models": [{"path": "m.jsonl"}]}"#, in: folder) }
    #expect(error?.location.file == folder.directory + "/m.jsonl")
    #expect(error?.namedBy?.field == "environment.models[0].path")
    #expect(error?.description.contains("(named by ") == true)
    // A texture the model names: located at the model, named by the model's field.
    try folder.write("tex.obj", "mtllib tex.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl a\nf 1 2 3\n")
    try folder.write("tex.mtl", "newmtl a\nmap_Kd /etc/passwd\n")
    error = failure { _ = try load(#"{"models": [{"path": "tex.obj"}]}"#, in: folder) }
    #expect(error?.location.file == folder.directory + "/tex.obj")
    #expect(error?.reason.contains("must be a relative path") == true)
    #expect(error?.namedBy?.field == "environment.models[0].path")
  }

  @Test("A model's texture through a link leading out of the model's folder is refused")
  func textureLinkOutside() throws {
    let folder = try EnvironmentFixture()
    defer { folder.remove() }
    try FileManager.default.createDirectory(
      atPath: folder.directory + "/room", withIntermediateDirectories: true)
    let image = try Image(width: 2, height: 2, fill: (200, 100, 50, 255)).pngData()
    try folder.write("outside.png", image)
    try FileManager.default.createSymbolicLink(
      atPath: folder.directory + "/room/link.png",
      withDestinationPath: folder.directory + "/outside.png")
    try folder.write(
      "room/tex.obj",
      "mtllib tex.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\n"
        + "usemtl a\nf 1/1 2/2 3/3\n")
    try folder.write("room/tex.mtl", "newmtl a\nmap_Kd link.png\n")
    let error = failure { _ = try load(#"{"models": [{"path": "room/tex.obj"}]}"#, in: folder) }
    #expect(error?.kind == .badData)
    #expect(error?.reason.contains("is a link leading outside the model's folder") == true)
    // The same texture as a file in the folder reads.
    try FileManager.default.removeItem(atPath: folder.directory + "/room/link.png")
    try folder.write("room/link.png", image)
    let environment = try load(#"{"models": [{"path": "room/tex.obj"}]}"#, in: folder)
    #expect(environment.geometry.triangleCount == 1)
  }

  @Test("A model placed in the world: node transform, unit and up axis applied to its corners")
  func placement() throws {
    let folder = try EnvironmentFixture()
    defer { folder.remove() }
    try folder.copy("cube.obj")
    let environment = try load(
      #"{"models": [{"path": "cube.obj", "position": [1, 2, 3], "unit": "cm", "scale": 10, "up": "z"}]}"#,
      in: folder)
    #expect(environment.geometry.triangleCount == 12)
    #expect(environment.inputPaths == [folder.directory + "/cube.obj"])
    // ±0.5 cm × 10 = ±5 cm around (1, 2, 3).
    let xs = environment.geometry.positions.map(\.x)
    let ys = environment.geometry.positions.map(\.y)
    #expect(abs(xs.min()! - 0.95) < 1e-12 && abs(xs.max()! - 1.05) < 1e-12)
    #expect(abs(ys.min()! - 1.95) < 1e-12 && abs(ys.max()! - 2.05) < 1e-12)
    #expect(environment.warnings.isEmpty)
  }

  @Test("Keys that cannot act warn: classification without planeDetection, repeats and wrap alone")
  func idleKeys() throws {
    let folder = try EnvironmentFixture()
    defer { folder.remove() }
    let idle = try load(
      #"{"primitives": [{"plane": {"width": 1, "height": 1}}, {"plane": {"width": 1, "height": 1}, "classification": "table", "material": {"color": [1, 0, 0], "repeats": [2, 2], "wrap": "clamp"}}]}"#,
      in: folder)
    #expect(
      idle.warnings == [
        "environment.primitives[1].material.repeats has no effect without a texture",
        "environment.primitives[1].material.wrap has no effect without a texture",
        "environment.primitives[1].classification has no effect without environment.planeDetection",
      ])
    let used = try load(
      #"{"planeDetection": ["horizontal"], "primitives": [{"plane": {"width": 1, "height": 1}, "classification": "table"}]}"#,
      in: folder)
    #expect(used.warnings.isEmpty)
  }

  @Test(
    "Huge and degenerate triangles are dropped with warnings; a textured mesh without uvs warns")
  func warnings() throws {
    let folder = try EnvironmentFixture()
    defer { folder.remove() }
    let image = try Image(width: 2, height: 2, fill: (200, 100, 50, 255)).pngData()
    try folder.write("tex.png", image)
    try folder.write("room.mtl", "newmtl wood\nKd 1 1 1\nmap_Kd tex.png\n")
    try folder.write(
      "room.obj",
      """
      mtllib room.mtl
      usemtl wood
      v 0 0 0
      v 1 0 0
      v 0 1 0
      v 2 0 0
      v 1e30 0 0
      v 0 5 0
      f 1 2 3
      f 1 2 4
      f 1 5 6
      """)
    let environment = try load(#"{"models": [{"path": "room.obj"}]}"#, in: folder)
    #expect(environment.geometry.triangleCount == 1)
    let text = environment.warnings.joined(separator: "\n")
    #expect(text.contains("1 degenerate (zero-area) triangle(s) dropped"), "\(text)")
    #expect(
      text.contains("1 triangle(s) with non-finite corners or corners beyond 100 km"), "\(text)")
    #expect(text.contains("has a texture but no texture coordinates"), "\(text)")
    #expect(environment.inputPaths.contains(folder.directory + "/room.mtl"))
    // Drawn in the base colour: the twin material has no texture.
    let material = environment.geometry.materials[Int(environment.geometry.materialIndices[0])]
    #expect(material.texture == nil)
  }

  @Test("An OBJ whose mtllib is missing warns, naming the library; one that is there does not")
  func missingMaterialLibrary() throws {
    let folder = try EnvironmentFixture()
    defer { folder.remove() }
    let triangle = "v 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl a\nf 1 2 3\n"
    try folder.write("lost.obj", "mtllib gone.mtl\n" + triangle)
    var environment = try load(#"{"models": [{"path": "lost.obj"}]}"#, in: folder)
    #expect(environment.geometry.triangleCount == 1)
    #expect(
      environment.warnings == [
        folder.directory
          + "/lost.obj: its material library 'gone.mtl' is missing; its meshes are drawn in the "
          + "default material"
      ])
    try folder.write("gone.mtl", "newmtl a\nKd 1 0 0\n")
    environment = try load(#"{"models": [{"path": "lost.obj"}]}"#, in: folder)
    #expect(environment.warnings.isEmpty, "\(environment.warnings)")
  }

  @Test("An OBJ's mtllib outside its folder (absolute, '..', a link out) warns that it was refused")
  func refusedMaterialLibrary() throws {
    let folder = try EnvironmentFixture()
    defer { folder.remove() }
    let triangle = "v 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl a\nf 1 2 3\n"
    try folder.write("outside.mtl", "newmtl a\nKd 1 0 0\n")
    try FileManager.default.createDirectory(
      atPath: folder.directory + "/model", withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(
      atPath: folder.directory + "/model/link.mtl", withDestinationPath: "../outside.mtl")
    for name in [folder.directory + "/outside.mtl", "../outside.mtl", "link.mtl"] {
      try folder.write("model/m.obj", "mtllib \(name)\n" + triangle)
      let environment = try load(#"{"models": [{"path": "model/m.obj"}]}"#, in: folder)
      #expect(environment.geometry.triangleCount == 1)
      #expect(
        environment.warnings == [
          folder.directory + "/model/m.obj: its material library "
            + "\(InputText.quoted(name, limit: 60)) is outside the "
            + "model's folder (absolute, '..' or a link leading out) and was not read; its "
            + "meshes are drawn in the default material"
        ], "\(environment.warnings)")
      // Not red: the default material.
      #expect(
        environment.geometry.materials.allSatisfy {
          $0.baseColor.red != 1 || $0.baseColor.green != 0
        })
    }
  }

  @Test("A glTF image with an empty uri or data URI is bad data naming the model, not a folder")
  func emptyTextureImage() throws {
    let folder = try EnvironmentFixture()
    defer { folder.remove() }
    try folder.copy("BoxTextured0.bin")
    let text = try String(
      contentsOfFile: EnvironmentFixture.fixtures + "/BoxTextured.gltf", encoding: .utf8)
    for (k, uri) in ["", "data:image/png;base64,"].enumerated() {
      let path = try folder.write(
        "empty\(k).gltf",
        text.replacingOccurrences(of: "\"CesiumLogoFlat.png\"", with: "\"\(uri)\""))
      let error = failure {
        _ = try load(#"{"models": [{"path": "empty\#(k).gltf"}]}"#, in: folder)
      }
      #expect(error?.kind == .badData, "\(String(describing: error))")
      #expect(error?.location.file == path)
      #expect(error?.reason == "a material's texture image is empty")
    }
  }

  @Test("A primitive with a texture: repeats scale the uvs; the PNG is an input")
  func primitive() throws {
    let folder = try EnvironmentFixture()
    defer { folder.remove() }
    try folder.write("t.png", try Image(width: 4, height: 2).pngData())
    let environment = try load(
      #"{"primitives": [{"plane": {"width": 2, "height": 1}, "position": [0, 1, -2], "material": {"texture": "t.png", "repeats": [4, 2], "wrap": "clamp"}}], "occlusion": true}"#,
      in: folder)
    #expect(environment.geometry.triangleCount == 2)
    #expect(environment.geometry.occludes)
    #expect(environment.geometry.uvs.map(\.x).max() == 4)
    #expect(environment.geometry.uvs.map(\.y).max() == 2)
    #expect(environment.geometry.materials[0].texture?.wrapU == .clamp)
    #expect(environment.geometry.materials[0].texture?.levels.map(\.width) == [4, 2, 1])
    #expect(environment.inputPaths == [folder.directory + "/t.png"])
  }

  @Test(
    "Primitives sharing a texture file share one mip chain; a model listed twice, its materials")
  func sharedInputs() throws {
    let folder = try EnvironmentFixture()
    defer { folder.remove() }
    try folder.write("t.png", try Image(width: 8, height: 4).pngData())
    let plane = #"{"plane": {"width": 1, "height": 1}, "material": {"texture": "t.png"}}"#
    let clamped =
      #"{"plane": {"width": 1, "height": 1}, "material": {"texture": "t.png", "wrap": "clamp"}}"#
    let model = #"{"path": "\#(EnvironmentFixture.fixtures)/BoxTextured.glb"}"#
    let environment = try load(
      #"{"primitives": [\#(plane), \#(plane), \#(clamped)], "models": [\#(model), \#(model)]}"#,
      in: folder)
    let textures = environment.geometry.materials.compactMap(\.texture)
    #expect(textures.count == 5)
    func storage(_ texture: MipmappedTexture) -> ObjectIdentifier { texture.storageIdentifier }
    // The two repeat planes: one chain; the clamped one: its own wrap, the same texels'
    // decoded image but a chain of its own; the model's embedded texture: one chain for both.
    let planes = textures.filter { $0.layout.first?.x == 8 }
    let box = textures.filter { $0.layout.first?.x != 8 }
    #expect(planes.count == 3 && box.count == 2)
    #expect(storage(planes[0]) == storage(planes[1]))
    #expect(planes[2].wrapU == .clamp && storage(planes[2]) != storage(planes[0]))
    #expect(storage(box[0]) == storage(box[1]))
    #expect(environment.geometry.triangleCount == 3 * 2 + 2 * 12)
  }

  @Test("Models past the environment's triangle limit name the total, not what was left")
  func environmentTriangleLimit() throws {
    let folder = try EnvironmentFixture()
    defer { folder.remove() }
    // A grid of 708 × 708 squares (1 002 528 triangles), listed twice: the second passes.
    let side = 708
    var text = ""
    for j in 0...side { for i in 0...side { text += "v \(i) 0 \(j)\n" } }
    for j in 0..<side {
      for i in 0..<side {
        let a = j * (side + 1) + i + 1
        text += "f \(a) \(a + side + 1) \(a + 1)\nf \(a + 1) \(a + side + 1) \(a + side + 2)\n"
      }
    }
    try folder.write("grid.obj", text)
    let error = failure {
      _ = try load(#"{"models": [{"path": "grid.obj"}, {"path": "grid.obj"}]}"#, in: folder)
    }
    #expect(error?.kind == .badData)
    #expect(
      error?.reason
        == "with this model's 1002528 triangles the environment passes the limit of 2000000 "
        + "triangles (1002528 before it)",
      "\(String(describing: error))")
  }

  @Test("Bad sections and files: 65/66 naming the field or file")
  func badInput() throws {
    let folder = try EnvironmentFixture()
    defer { folder.remove() }
    let both = failure {
      _ = try load(
        #"{"primitives": [{"box": {"width": 1, "height": 1, "length": 1}, "plane": {"width": 1, "height": 1}}]}"#,
        in: folder)
    }
    #expect(both?.location.field == "environment.primitives[0]")
    // Past the 100 km corner limit a typed primitive is a mistake (its plane discovery asked
    // for 10¹⁸ bytes of cells): refused, by its size or by where it reaches.
    let huge = failure {
      _ = try load(
        #"{"primitives": [{"box": {"width": 1e30, "height": 1, "length": 1}}]}"#, in: folder)
    }
    #expect(huge?.kind == .badData)
    #expect(huge?.location.field == "environment.primitives[0].box")
    #expect(huge?.reason == "width, height and length must be > 0 and ≤ 100 km")
    let far = failure {
      _ = try load(
        #"{"primitives": [{"plane": {"width": 100, "height": 1}, "position": [99990, 0, 0]}]}"#,
        in: folder)
    }
    #expect(far?.location.field == "environment.primitives[0].position")
    #expect(far?.reason == "the primitive reaches farther than 100 km from the origin")
    #expect(
      (try? load(
        #"{"primitives": [{"plane": {"width": 100, "height": 1}, "position": [99940, 0, 0]}]}"#,
        in: folder)) != nil)
    let position = failure {
      _ = try load(#"{"models": [{"path": "a.obj", "position": [1, 2]}]}"#, in: folder)
    }
    #expect(position?.location.field == "environment.models[0].position")
    // A texture an OBJ's material library names that is not there: the model named too.
    try folder.write("lib.mtl", "newmtl wood\nKd 1 1 1\nmap_Kd missing.png\n")
    try folder.write(
      "quad.obj",
      "mtllib lib.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nvt 0 0\nvt 1 0\nvt 1 1\nusemtl wood\nf 1/1 2/2 3/3\n"
    )
    let texture = failure { _ = try load(#"{"models": [{"path": "quad.obj"}]}"#, in: folder) }
    #expect(texture?.kind == .missingInput)
    #expect(texture?.location.file == folder.directory + "/missing.png")
    #expect(
      texture?.reason
        == "no such file; a material of '\(folder.directory)/quad.obj' names it as its texture",
      "\(String(describing: texture))")
    // An empty path would name the scene's folder: bad data, not a missing file.
    let empty = failure { _ = try load(#"{"models": [{"path": ""}]}"#, in: folder) }
    #expect(empty?.kind == .badData)
    #expect(empty?.location.field == "environment.models[0].path")
    #expect(empty?.reason == "the path is empty")
    let missing = failure { _ = try load(#"{"models": [{"path": "none.glb"}]}"#, in: folder) }
    #expect(missing?.kind == .missingInput)
    #expect(missing?.location.file == folder.directory + "/none.glb")
    let lighting = failure { _ = try load(#"{"lighting": "sun"}"#, in: folder) }
    #expect(lighting?.location.field == "environment.lighting")
    // A PNG whose header says 9000 × 10: refused before decoding, the limit named.
    var header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    header += Array("IHDR".utf8) + [0, 0, 0x23, 0x28, 0, 0, 0, 10, 8, 6, 0, 0, 0]
    try folder.write("big.png", header)
    let big = failure {
      _ = try load(
        #"{"primitives": [{"plane": {"width": 1, "height": 1}, "material": {"texture": "big.png"}}]}"#,
        in: folder)
    }
    #expect(big?.reason.contains("over the limit of 8192") == true, "\(String(describing: big))")
    try folder.write("photo.png", [0xFF, 0xD8, 0xFF, 0xE0, 0, 0])
    let jpeg = failure {
      _ = try load(
        #"{"primitives": [{"plane": {"width": 1, "height": 1}, "material": {"texture": "photo.png"}}]}"#,
        in: folder)
    }
    #expect(jpeg?.reason.contains("JPEG") == true)
    try folder.write("cut.png", Array(try Image(width: 8, height: 8).pngData().prefix(40)))
    let cut = failure {
      _ = try load(
        #"{"primitives": [{"plane": {"width": 1, "height": 1}, "material": {"texture": "cut.png"}}]}"#,
        in: folder)
    }
    #expect(cut?.kind == .badData)
    #expect(cut?.location.file == folder.directory + "/cut.png")
    // Textures over 64 Mi texels together: the one that passes it is refused from its header,
    // before it is decoded (8192 × 8192 after a 2 × 2: the header alone, so decoding would
    // have said "truncated" instead).
    try folder.write("small.png", try Image(width: 2, height: 2).pngData())
    var header8192: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    header8192 += Array("IHDR".utf8) + [0, 0, 0x20, 0x00, 0, 0, 0x20, 0x00, 8, 6, 0, 0, 0]
    try folder.write("huge.png", header8192)
    let total = failure {
      _ = try load(
        #"{"primitives": [{"plane": {"width": 1, "height": 1}, "material": {"texture": "small.png"}}, "#
          + #"{"plane": {"width": 1, "height": 1}, "material": {"texture": "huge.png"}}]}"#,
        in: folder)
    }
    #expect(total?.location.file == folder.directory + "/huge.png")
    #expect(
      total?.reason == "the environment's textures pass the limit of 64 Mi texels together",
      "\(String(describing: total))")
  }
}
