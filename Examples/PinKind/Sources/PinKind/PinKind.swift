import ARMath
import ARScene
import ARSession
import ARSupport

/// A session kind of this package, not ARSim's: scene-file key `pin`,
/// `{"position": [x, y, z], "color": [r, g, b], "size": metres, "label": text}`. From τ = 0 an
/// unlit box of `size` stands at `position` (world metres); its trace entry carries
/// `"pinLabel"` (a `NodeComponent`), every trace line `"pin": {"label"}`, and the first tick
/// emits `pin-placed`.
public struct PinKind: SessionKind {
  /// The `pin` section as written.
  public struct Section: Decodable, Sendable {
    /// World metres.
    public var position: [Double]
    /// `[r, g, b]` or `[r, g, b, a]`, 0…1 (default orange).
    public var color: [Double]?
    /// Edge length, metres (default 0.2).
    public var size: Double?
    /// A label (default "pin").
    public var label: String?
  }

  /// The checked section.
  public struct Configuration: SessionConfiguration {
    /// Where the pin stands, world metres.
    public var position: Vector3
    /// Its colour.
    public var color: Color
    /// Its edge length, metres.
    public var size: Double
    /// Its label.
    public var label: String

    /// A `PinSession`.
    public func makeSession(_ setup: SessionSetup) throws -> any Session {
      PinSession(configuration: self)
    }
  }

  /// Creates the kind.
  public init() {}

  /// `pin`.
  public var key: String { "pin" }

  /// The section's fields, for "not a scene field" warnings.
  public var schema: [String: Set<String>] { ["pin": ["position", "color", "size", "label"]] }

  /// - Throws: `InputError` naming `pin.position`, `pin.color` or `pin.size` (the loader adds
  ///   the line), through the scene file's shared checks.
  public func configure(_ section: Section, in scene: inout SceneSection) throws
    -> any SessionConfiguration
  {
    let size = section.size ?? 0.2
    try scene.finite(size, field: "pin.size", minimum: 0.001)
    return Configuration(
      position: try scene.vector3(section.position, field: "pin.position"),
      color: try scene.color(section.color ?? [1, 0.5, 0], field: "pin.color"), size: size,
      label: section.label ?? "pin")
  }
}

/// The pin's label in its node's trace entry, `"pinLabel"`.
public struct PinLabel: NodeComponent {
  /// The label.
  public var text: String

  /// `"pinLabel": text`.
  public func writeTraceFields(to fields: inout some NodeFieldWriter) {
    fields.string("pinLabel", text)
  }
}

/// Places the pin at the first tick.
public final class PinSession: Session {
  let configuration: PinKind.Configuration
  private var placed = false

  init(configuration: PinKind.Configuration) { self.configuration = configuration }

  /// Adds the box under the scene root at the first tick and emits `pin-placed`.
  public func update(_ context: inout TickContext) {
    guard !placed else { return }
    placed = true
    var material = Material()
    material.diffuse = configuration.color
    material.lightingModel = .constant
    let size = configuration.size
    let node = Node(
      name: "pin", geometry: .box(width: size, height: size, length: size, material: material))
    node.position = configuration.position
    node.setComponent(PinLabel(text: configuration.label))
    context.root.addChildNode(node)
    context.emit("pin-placed", [("label", .string(configuration.label))])
  }

  /// `"pin": {"label"}`.
  public func traceFields() -> [(String, JSONValue)] {
    [("pin", .object([("label", .string(configuration.label))]))]
  }
}
