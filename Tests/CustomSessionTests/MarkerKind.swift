import ARMath
import ARScene
import ARSession
import ARSupport

/// A user-defined session kind, written only against the public API as a package depending on
/// ARSim would (Documentation/CustomSessions.md): scene-file key `marker`,
/// `{"position": [x, y, z], "appearsAt": τ, "radius": r}`; at τ ≥ appearsAt a red, unlit
/// sphere appears at `position` (world metres), the tick emits `marker-shown`, and every trace
/// line carries `"marker": {"visible": Bool}`.
struct MarkerKind: SessionKind {
  struct Section: Decodable, Sendable {
    var position: [Double]
    var appearsAt: Double?
    var radius: Double?
    /// A plain `Int` field, as a plug-in author would declare one (its errors are tested).
    var copies: Int?
  }

  struct Configuration: SessionConfiguration {
    var position: Vector3
    var appearsAt: Double
    var radius: Double

    func makeSession(_ setup: SessionSetup) throws -> any Session {
      MarkerSession(configuration: self)
    }
  }

  var key: String { "marker" }

  var schema: [String: Set<String>] { ["marker": ["position", "appearsAt", "radius", "copies"]] }

  func configure(_ section: Section, in scene: inout SceneSection) throws
    -> any SessionConfiguration
  {
    guard section.position.count == 3, section.position.allSatisfy(\.isFinite) else {
      throw scene.error("marker.position", "expected 3 finite numbers")
    }
    let radius = section.radius ?? 0.1
    guard radius.isFinite, radius > 0 else {
      throw scene.error("marker.radius", "must be > 0 metres")
    }
    return Configuration(
      position: Vector3(section.position[0], section.position[1], section.position[2]),
      appearsAt: section.appearsAt ?? 0, radius: radius)
  }
}

final class MarkerSession: Session {
  let configuration: MarkerKind.Configuration
  private var node: Node?

  init(configuration: MarkerKind.Configuration) { self.configuration = configuration }

  func update(_ context: inout TickContext) {
    guard node == nil, context.t >= configuration.appearsAt else { return }
    var material = Material()
    material.diffuse = Color(red: 1, green: 0, blue: 0)
    material.lightingModel = .constant
    let marker = Node(
      name: "marker", geometry: .sphere(radius: configuration.radius, material: material))
    marker.position = configuration.position
    context.root.addChildNode(marker)
    node = marker
    context.emit("marker-shown", [("position", .numbers(configuration.position.array))])
  }

  func traceFields() -> [(String, JSONValue)] {
    [("marker", .object([("visible", .bool(node != nil))]))]
  }

  func overlayText() -> [OverlayText] {
    [OverlayText(source: "marker", lines: [node == nil ? "WAITING" : "MARKER"])]
  }
}
