import ARFormats
import ARSupport
import Foundation

/// B5's environment (Documentation/Performance.md, "B5"): the bundled desk room around the
/// walk plus a generated high-detail model: 100 486 triangles, 100 376 of them textured.
extension BenchScene {
  /// Quads per side of B5's relief rug: 224 × 224 × 2 = 100 352 triangles.
  static let rugQuadsPerSide = 224

  /// Whether a bare `arsim bench` runs this scene (B5 is named explicitly: it reads a 100 k
  /// triangle model first; B6 too: it makes its camera images first).
  public var runsByDefault: Bool { self != .b5 && self != .b6 }

  /// The scene file's `environment` member (with its leading comma) for B5, empty for the
  /// others. Writes the generated model and its texture into `folder/b5-environment/`.
  ///
  /// Layout, relative to the first camera position `p` (B1's floor plane is 1.4 m below it):
  /// a 7 × 7.5 × 3 m room with a ceiling (the bundled room's floor, wall and wood textures,
  /// `Scenes/Inputs/environment/`, read from the current folder as the default track is) whose
  /// floor is B1's floor plane; the bundled desk room's desk, legs, monitor, keyboard, book and
  /// mug (`Scenes/tum-desk-circle-surface-room.json`) moved as one so the desk stands under the
  /// middle of the walk; and a rug of 224 × 224 quads, 4.4 × 4.2 m, whose surface is a seeded
  /// sum of sines up to 1 cm high (a heightfield, like a scanned floor), textured with the
  /// wall texture tinted red, written as Wavefront OBJ and read through Assimp like any model.
  /// - Throws: `InputError` `.missingInput` (66) when the bundled textures are not found.
  func environmentMember(origin p: SIMD3<Double>, folder: String) throws -> String {
    guard self == .b5 else { return "" }
    let cwd = FileManager.default.currentDirectoryPath
    let textures = cwd + "/Scenes/Inputs/environment"
    for name in ["floor.png", "wall.png", "wood.png"] {
      guard FileManager.default.fileExists(atPath: textures + "/" + name) else {
        throw InputError(
          .missingInput, InputLocation(file: textures + "/" + name),
          "B5's room textures are looked up from the current folder: run arsim bench from the "
            + "repository root")
      }
    }
    let modelFolder = folder + "/b5-environment"
    try FileIO.createDirectory(modelFolder)
    try FileIO.writeAtomically(
      try FileIO.read(textures + "/wall.png"), to: modelFolder + "/rug.png")
    try FileIO.writeAtomically(
      Array("newmtl rug\nKd 0.85 0.42 0.36\nmap_Kd rug.png\n".utf8), to: modelFolder + "/rug.mtl")
    let floorY = p.y - 1.4
    try FileIO.writeAtomically(
      Self.rugOBJ(
        centre: SIMD3(p.x, floorY, p.z - 1.5), width: 4.4, length: 4.2,
        quads: Self.rugQuadsPerSide),
      to: modelFolder + "/rug.obj")

    func json(_ v: SIMD3<Double>) -> String { "[\(v.x), \(v.y), \(v.z)]" }
    func texture(_ name: String) -> String { JSONValue.string(textures + "/" + name).text }
    let halfPi = Double.pi / 2
    // The room: floor and four walls around the walk (x −1.8…1.7 m, z −3.2…0 m from p).
    let centre = SIMD3(p.x, floorY, p.z - 1.75)
    var primitives = [
      """
      {"name": "floor", "plane": {"width": 7, "height": 7.5}, "position": \(json(centre)),
       "eulerAngles": [\(-halfPi), 0, 0],
       "material": {"texture": \(texture("floor.png")), "repeats": [7, 7.5]}}
      """,
      """
      {"name": "back wall", "plane": {"width": 7, "height": 3},
       "position": \(json(centre + SIMD3(0, 1.5, -3.75))),
       "material": {"texture": \(texture("wall.png")), "repeats": [4, 2]}}
      """,
      """
      {"name": "front wall", "plane": {"width": 7, "height": 3},
       "position": \(json(centre + SIMD3(0, 1.5, 3.75))), "eulerAngles": [0, \(Double.pi), 0],
       "material": {"texture": \(texture("wall.png")), "repeats": [4, 2],
                    "color": [1.0, 0.96, 0.9]}}
      """,
      """
      {"name": "left wall", "plane": {"width": 7.5, "height": 3},
       "position": \(json(centre + SIMD3(-3.5, 1.5, 0))), "eulerAngles": [0, \(halfPi), 0],
       "material": {"texture": \(texture("wall.png")), "repeats": [4, 2],
                    "color": [0.92, 0.95, 1.0]}}
      """,
      """
      {"name": "ceiling", "plane": {"width": 7, "height": 7.5},
       "position": \(json(centre + SIMD3(0, 3, 0))), "eulerAngles": [\(halfPi), 0, 0],
       "material": {"texture": \(texture("wall.png")), "repeats": [4, 4]}}
      """,
      """
      {"name": "right wall", "plane": {"width": 7.5, "height": 3},
       "position": \(json(centre + SIMD3(3.5, 1.5, 0))), "eulerAngles": [0, \(-halfPi), 0],
       "material": {"texture": \(texture("wall.png")), "repeats": [4, 2]}}
      """,
    ]
    // The bundled room's furniture (its positions have the floor at y = 0 and the desk at
    // x 0.35, z −0.65), moved so the desk's centre is 0.3 m right of and 1.9 m ahead of p.
    let shift = SIMD3(p.x + 0.3 - 0.35, floorY, p.z - 1.9 + 0.65)
    let grey = "[0.25, 0.25, 0.27]"
    let furniture: [(String, String, SIMD3<Double>, String, String)] = [
      (
        "desk", "{\"width\": 1.6, \"height\": 0.04, \"length\": 1.0}", SIMD3(0.35, 0.71, -0.65),
        "0", "\"texture\": \(texture("wood.png"))"
      ),
      (
        "desk leg", "{\"width\": 0.05, \"height\": 0.69, \"length\": 0.05}",
        SIMD3(-0.39, 0.345, -1.09), "0", "\"color\": \(grey)"
      ),
      (
        "desk leg", "{\"width\": 0.05, \"height\": 0.69, \"length\": 0.05}",
        SIMD3(-0.39, 0.345, -0.21), "0", "\"color\": \(grey)"
      ),
      (
        "desk leg", "{\"width\": 0.05, \"height\": 0.69, \"length\": 0.05}",
        SIMD3(1.09, 0.345, -1.09), "0", "\"color\": \(grey)"
      ),
      (
        "desk leg", "{\"width\": 0.05, \"height\": 0.69, \"length\": 0.05}",
        SIMD3(1.09, 0.345, -0.21), "0", "\"color\": \(grey)"
      ),
      (
        "monitor", "{\"width\": 0.03, \"height\": 0.34, \"length\": 0.56}",
        SIMD3(-0.28, 1.0, -0.65), "0", "\"color\": [0.08, 0.08, 0.09]"
      ),
      (
        "monitor stand", "{\"width\": 0.12, \"height\": 0.1, \"length\": 0.2}",
        SIMD3(-0.28, 0.78, -0.65), "0", "\"color\": [0.12, 0.12, 0.13]"
      ),
      (
        "keyboard", "{\"width\": 0.15, \"height\": 0.02, \"length\": 0.44}",
        SIMD3(0.12, 0.74, -0.65), "0", "\"color\": [0.82, 0.82, 0.8]"
      ),
      (
        "book", "{\"width\": 0.22, \"height\": 0.04, \"length\": 0.16}", SIMD3(0.5, 0.75, -1.0),
        "0.3", "\"color\": [0.62, 0.12, 0.1]"
      ),
      (
        "mug", "{\"width\": 0.08, \"height\": 0.1, \"length\": 0.08}", SIMD3(0.2, 0.78, -1.05),
        "0", "\"color\": [0.95, 0.95, 0.93]"
      ),
    ]
    for (name, box, position, yaw, material) in furniture {
      primitives.append(
        """
        {"name": "\(name)", "box": \(box), "position": \(json(position + shift)),
         "eulerAngles": [0, \(yaw), 0], "material": {\(material)}}
        """)
    }
    primitives.append(
      """
      {"name": "monitor screen", "plane": {"width": 0.52, "height": 0.3},
       "position": \(json(SIMD3(-0.264, 1.0, -0.65) + shift)), "eulerAngles": [0, \(halfPi), 0],
       "material": {"color": [0.18, 0.28, 0.42]}}
      """)
    return """
      ,
        "environment": {
          "models": [{"path": "b5-environment/rug.obj"}],
          "primitives": [
      \(primitives.joined(separator: ",\n"))
          ]
        }
      """
  }

  /// A Wavefront OBJ rug of `quads` × `quads` cells (two triangles each) centred on `centre`
  /// (metres; its lowest point 2 mm above `centre.y`), `width` along x and `length` along z,
  /// material `rug` of `rug.mtl`; texture coordinates repeat the texture 6 × 6 times.
  /// Height: 2 mm + 4 mm · (sin(9x + 2 sin 5z) + 1) / 2 + 4 mm · (sin(13z + 3 sin 4x) + 1) / 2,
  /// x, z in metres from the centre; written with Float precision, so the bytes are the same
  /// on every machine.
  static func rugOBJ(centre: SIMD3<Double>, width: Double, length: Double, quads: Int) -> [UInt8] {
    var text = "# ARSim B5 rug: \(quads) x \(quads) quads, generated\nmtllib rug.mtl\n"
    text.reserveCapacity(160 * (quads + 1) * (quads + 1))
    for row in 0...quads {
      for column in 0...quads {
        let x = (Double(column) / Double(quads) - 0.5) * width
        let z = (Double(row) / Double(quads) - 0.5) * length
        let height =
          0.002 + 0.002 * (sin(9 * x + 2 * sin(5 * z)) + 1) + 0.002
          * (sin(13 * z + 3 * sin(4 * x)) + 1)
        text += "v \(Float(centre.x + x)) \(Float(centre.y + height)) \(Float(centre.z + z))\n"
      }
    }
    for row in 0...quads {
      for column in 0...quads {
        text +=
          "vt \(Float(6 * Double(column) / Double(quads))) \(Float(6 * Double(row) / Double(quads)))\n"
      }
    }
    text += "usemtl rug\n"
    let stride = quads + 1
    for row in 0..<quads {
      for column in 0..<quads {
        let a = row * stride + column + 1  // OBJ indices start at 1
        let b = a + 1
        let c = a + stride
        let d = c + 1
        text += "f \(a)/\(a) \(c)/\(c) \(d)/\(d)\nf \(a)/\(a) \(d)/\(d) \(b)/\(b)\n"
      }
    }
    return Array(text.utf8)
  }
}
