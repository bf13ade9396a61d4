import ARMath
import ARRender
import ARRenderCore
import ARScene
import ARSession
import ARSupport

/// A loaded `environment` section: the triangles the renderer draws as the camera image, with
/// what loading found.
public struct Environment: Sendable {
  /// The triangles and materials (world frame), shared by every frame's render list.
  public var geometry: EnvironmentGeometry
  /// One entry per model or primitive, in scene order: its triangles' range in `geometry`.
  public var parts: [Part]
  /// Every file read (models, files they reference, textures), as resolved paths.
  public var inputPaths: [String]
  /// Findings that did not stop loading (dropped triangles, missing texture coordinates).
  public var warnings: [String]
  /// The alignments `planeDetection` asks for (empty: no plane discovery).
  public var planeDetection: Set<PlaneAnchor.Alignment> = []

  /// A model or primitive of the section.
  public struct Part: Sendable {
    /// The model's path or the primitive's name.
    public var name: String
    /// Its triangles in `geometry` (triangle indices).
    public var triangles: Range<Int>
    /// The `classification` key: discovered planes on its surfaces get it (nil: the rule).
    public var classification: PlaneAnchor.Classification?
  }
}

extension Environment {
  /// Loads the section: every model through `ModelFile.read`, every primitive, every texture;
  /// checks each field (errors name `environment.…`).
  /// - Throws: `InputError` `.badData` (65) naming the scene field or the model/texture file
  ///   (with Assimp's or libpng's reason), `.missingInput` (66) for a missing file; a limit of
  ///   `EnvironmentLimits` passed is named.
  public static func load(_ spec: EnvironmentSpec, section: SceneSection) throws -> Environment {
    var builder = EnvironmentBuilder(section: section)
    let lighting = try section.choice(spec.lighting, Lighting.self, field: "environment.lighting")
    var classifications: [PlaneAnchor.Classification?] = []
    for (i, model) in (spec.models ?? []).enumerated() {
      let field = "environment.models[\(i)]"
      classifications.append(
        try section.choice(
          model.classification, PlaneAnchor.Classification.self, field: field + ".classification"))
      try builder.addModel(model, field: field)
    }
    for (i, primitive) in (spec.primitives ?? []).enumerated() {
      let field = "environment.primitives[\(i)]"
      classifications.append(
        try section.choice(
          primitive.classification, PlaneAnchor.Classification.self,
          field: field + ".classification"))
      try builder.addPrimitive(primitive, field: field)
    }
    var detection = Set<PlaneAnchor.Alignment>()
    for (i, name) in (spec.planeDetection ?? []).enumerated() {
      guard
        let alignment = try section.choice(
          name, PlaneAnchor.Alignment.self, field: "environment.planeDetection[\(i)]")
      else { continue }
      guard detection.insert(alignment).inserted else {
        throw section.error(
          "environment.planeDetection[\(i)]", "\(InputText.quoted(name)) is given twice")
      }
    }
    if !detection.isEmpty, classifications.isEmpty {
      throw section.error(
        "environment.planeDetection",
        "plane discovery needs the environment's surfaces: add models or primitives")
    }
    if detection.isEmpty, let given = classifications.firstIndex(where: { $0 != nil }) {
      let models = spec.models?.count ?? 0
      let field =
        given < models
        ? "environment.models[\(given)]" : "environment.primitives[\(given - models)]"
      builder.warnings.append(
        "\(field).classification has no effect without environment.planeDetection")
    }
    var environment = try builder.finish(
      lit: lighting == .scene, occludes: spec.occlusion ?? false)
    for i in environment.parts.indices { environment.parts[i].classification = classifications[i] }
    environment.planeDetection = detection
    return environment
  }

  /// `environment.lighting`.
  enum Lighting: String, CaseIterable {
    case unlit
    case scene
  }
}
