import ARFormats
import ARMath
import ARScene
import ARSession
import ARSupport

/// Draws the scene's plane anchors, run once per AR tick like a session.
///
/// For each anchor in `context.planes` an anchor node (named `plane:<identifier>`) follows the
/// anchor's transform, as ARSCNView's node for an `ARAnchor`; its child (named
/// `plane-visual`) depends on the style. Anchors that disappear from `context.planes` lose
/// their node.
public final class PlaneVisualization: Session {
  /// How an anchor is drawn.
  public enum Style: String, Hashable, Sendable {
    /// A translucent (opacity 0.4) double-sided constant systemBlue `Plane` of the anchor's
    /// extent, at `center`, rotated −90° about X into the anchor's XZ plane (facing +Y);
    /// follows later extent and centre changes.
    case translucent
    /// The Agora ARKit sample's indicator (SourceApps.md §3.5): a red default-Blinn
    /// `Box(extent.x, extent.y, extent.z)` (a zero-height slab) at the anchor origin, *not*
    /// offset by `center`, sized once when the anchor first appears, whose opacity fades
    /// linearly from 1 to 0 over 1 s (SCNAction.fadeOut(duration: 1)) and stays at 0.
    case sampleApp
  }

  /// The drawing style.
  public let style: Style
  /// Fade duration of `sampleApp` in microseconds of τ.
  public static let fadeMicroseconds: Int64 = 1_000_000

  private var nodes: [String: (anchorNode: Node, visual: Node, appearedMicroseconds: Int64)] = [:]

  /// Creates a visualization.
  public init(style: Style = .translucent) { self.style = style }

  /// The anchor node drawn for the anchor `identifier`, if it is present.
  public func anchorNode(for identifier: String) -> Node? { nodes[identifier]?.anchorNode }

  /// Adds, updates and removes anchor nodes for this tick's planes and sets the fade.
  /// - Complexity: O(planes).
  public func update(_ context: inout TickContext) {
    var present = Set<String>()
    for anchor in context.planes {
      present.insert(anchor.identifier)
      let entry: (anchorNode: Node, visual: Node, appearedMicroseconds: Int64)
      if let existing = nodes[anchor.identifier] {
        entry = existing
        if style == .translucent { Self.shapeTranslucent(entry.visual, for: anchor) }
      } else {
        let anchorNode = Node(name: "plane:" + anchor.identifier)
        let visual = Node(name: "plane-visual")
        visual.anchorIdentifier = anchor.identifier
        switch style {
        case .translucent: Self.shapeTranslucent(visual, for: anchor)
        case .sampleApp:
          visual.geometry = .box(
            width: anchor.extent.x, height: anchor.extent.y, length: anchor.extent.z,
            material: Material(diffuse: Color(red: 1, green: 0, blue: 0)))
        }
        anchorNode.addChildNode(visual)
        context.root.addChildNode(anchorNode)
        entry = (anchorNode, visual, context.microseconds)
        nodes[anchor.identifier] = entry
      }
      entry.anchorNode.position = anchor.worldFromAnchor.translation
      entry.anchorNode.orientation = anchor.worldFromAnchor.rotation
      if style == .sampleApp {
        let elapsed = Double(context.microseconds - entry.appearedMicroseconds)
        entry.visual.opacity = max(0, min(1, 1 - elapsed / Double(Self.fadeMicroseconds)))
      }
    }
    for (identifier, entry) in nodes where !present.contains(identifier) {
      entry.anchorNode.removeFromParentNode()
      nodes[identifier] = nil
    }
  }

  /// No trace state.
  public func traceFields() -> [(String, JSONValue)] { [] }

  private static func shapeTranslucent(_ visual: Node, for anchor: PlaneAnchor) {
    visual.geometry = .plane(
      width: anchor.extent.x, height: anchor.extent.z,
      material: Material(
        diffuse: .systemBlue, lightingModel: .constant, isDoubleSided: true, transparency: 0.4))
    visual.position = anchor.center
    visual.orientation = Quaternion(axis: .unitX, angleRadians: -.pi / 2)
  }
}
