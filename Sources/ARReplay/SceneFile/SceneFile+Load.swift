import AREnvironment
import ARFormats
import ARRender
import ARSession
import ARSupport
import ARTracking
import Foundation

extension SceneFile {
  /// The longest accepted scene file (64 MiB): hand-written scenes are a few KiB; point clouds
  /// and inline strokes stay far below this.
  public static let maximumBytes = 64 << 20

  /// Reads and decodes a scene file: the common part, then the section of each kind of
  /// `registry` the file has (registration order).
  /// - Throws: `InputError` `.missingInput` for an unreadable file, `.badData` naming the file
  ///   and the JSON field path for invalid JSON, wrong types, missing required fields and keys
  ///   given twice in one object, or a file over `maximumBytes`.
  public static func read(path: String, registry: SessionRegistry) throws -> (
    SceneFile, sections: [DecodedSection], warnings: [String]
  ) {
    let bytes = try FileIO.read(path, maximumBytes: SceneFile.maximumBytes)
    let scene: SceneFile
    do {
      scene = try JSONDecoder().decode(SceneFile.self, from: Data(bytes))
    } catch let error as DecodingError {
      throw JSONDecoding.locatedError(error, bytes: bytes, file: path)
    }
    let sections = try registry.decodeSections(bytes, file: path)
    // Foundation keeps one of two equal keys without a word; in a hand-edited scene that hides
    // a mistake.
    if let problem = JSONSyntaxLocator.firstProblem(in: bytes, rejectingDuplicateKeys: true) {
      throw InputError(
        .badData, InputLocation(file: path, line: problem.line, field: problem.field),
        "column \(problem.column): \(problem.reason)")
    }
    var schema = SceneFile.schema.merging(registry.schema) { $0.union($1) }
      .merging(TrackingSpec.schema) { $0.union($1) }
      .merging(EnvironmentSpec.schema) { $0.union($1) }
    schema[""]?.formUnion(registry.keys)
    let warnings = UnknownFields.find(in: bytes, schema: schema).map { field in
      let line = JSONSyntaxLocator.line(ofField: field, in: bytes).map { ":\($0)" } ?? ""
      return
        "\(InputText.escaped(path))\(line): field \(InputText.quoted(field, limit: 80)) is not a scene field; ignored"
    }
    return (scene, sections, warnings)
  }

  /// The known keys of every object in a scene file's common part, by field path pattern (`[]`
  /// = any index); session kinds add their sections' (`SessionKind.schema`).
  static let schema: [String: Set<String>] = [
    "": [
      "name", "track", "intrinsics", "viewport", "output", "arFrameRate", "start", "duration",
      "frames", "clip", "background", "lights", "nodes", "planes", "pointCloud",
      "estimatedFloorY", "tracking", "environment", "planeDetection", "$schema", "comment",
    ],
    "track": TrackSpec.fields,
    "intrinsics": IntrinsicsSpec.fields,
    "output": ["width", "height", "fps", "depth", "supersampling", "png"],
    "clip": ["near", "far"],
    "background": ["color", "gradient", "images", "recording"],
    "background.recording": ["list", "format", "folder", "video", "offset", "lens"],
    "background.recording.lens": IntrinsicsSpec.fields.union(["distortion"]),
    "background.recording.lens.distortion": ["model", "coefficients"],
    "background.gradient": ["top", "bottom"],
    "lights[]": ["type", "color", "intensity", "eulerAngles"],
    "nodes[]": [
      "name", "position", "eulerAngles", "scale", "opacity", "hidden", "geometry", "material",
      "billboard", "children",
    ],
    "nodes[].geometry": ["sphere", "box", "plane"],
    "nodes[].geometry.sphere": ["radius"],
    "nodes[].geometry.box": ["width", "height", "length"],
    "nodes[].geometry.plane": ["width", "height"],
    "nodes[].material": [
      "diffuse", "specular", "shininess", "lightingModel", "doubleSided", "transparency",
    ],
    "planes[].updates[]": ["t", "center", "extent", "boundary"],
    "planes[]": [
      "id", "position", "eulerAngles", "center", "extent", "boundary", "alignment", "appearsAt",
      "disappearsAt", "mergedInto", "updates",
      "visualization",
    ],
  ]
}

/// Finds object keys a schema does not list (so typos in scene files become warnings).
enum UnknownFields {
  /// Dotted paths of unknown keys, e.g. `output.fsp`; nested `children` reuse the `nodes[]`
  /// rules. Objects whose path is not in the schema are not checked.
  static func find(in bytes: [UInt8], schema: [String: Set<String>]) -> [String] {
    guard let root = try? JSONSerialization.jsonObject(with: Data(bytes)) else { return [] }
    var unknown: [String] = []
    func walk(_ value: Any, pattern: String, path: String) {
      if let object = value as? [String: Any] {
        if let known = schema[pattern] {
          for key in object.keys.sorted() where !known.contains(key) {
            unknown.append(path.isEmpty ? key : "\(path).\(key)")
          }
        }
        for (key, child) in object {
          let childPattern =
            key == "children" ? "nodes" : (pattern.isEmpty ? key : "\(pattern).\(key)")
          walk(child, pattern: childPattern, path: path.isEmpty ? key : "\(path).\(key)")
        }
      } else if let array = value as? [Any] {
        for (i, child) in array.enumerated() {
          walk(child, pattern: pattern + "[]", path: "\(path)[\(i)]")
        }
      }
    }
    walk(root, pattern: "", path: "")
    return unknown.sorted()
  }
}
