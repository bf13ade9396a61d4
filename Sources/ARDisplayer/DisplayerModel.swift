import ARFormats
import ARMath
import ARScene
import ARSession
import ARSupport

/// The node tree of the video-with-ARKit app's `art.scnassets/displayer.scn` (reference §3.4,
/// decoded from the binary archive).
///
/// ```
/// root                      (placed at the hit)
/// └─ displayer  Box 1×1×1   position (0, 0.16, 0.0001), scale (0.225, 0.4, 0.01), grey Blinn
///    └─ screen  Plane 1×1   position (0, 0, 0.6),       scale (1, 1, 10),  constant, cyan
/// ```
/// In the root's frame the slab spans x ±0.1125, y −0.04…0.36, z −0.0049…0.0051 m; the screen
/// is a 0.225 × 0.40 m rectangle centred at (0, 0.16, 0.0061) facing +Z, single-sided.
public enum DisplayerModel {
  /// The slab's diffuse grey (archived NSComponents 0.1369628906).
  public static let slabGrey = 0.1369628906
  /// The screen's diffuse before a video is shown: sRGB (0.2878, 1, 1) cyan.
  public static let screenCyan = Color(red: 0.2878, green: 1, blue: 1)

  /// A new displayer tree: the root (named `name`, identity transform) with its `displayer`
  /// and `screen` descendants.
  public static func makeRoot(name: String?) -> Node {
    let root = Node(name: name)
    let slab = Node(
      name: "displayer",
      geometry: .box(
        width: 1, height: 1, length: 1,
        material: Material(
          diffuse: Color(red: slabGrey, green: slabGrey, blue: slabGrey), lightingModel: .blinn)))
    slab.position = Vector3(0, 0.16, 0.0001)
    slab.scale = Vector3(0.225, 0.4, 0.01)
    let screen = Node(
      name: "screen",
      geometry: .plane(
        width: 1, height: 1,
        material: Material(diffuse: screenCyan, lightingModel: .constant, isDoubleSided: false)))
    screen.position = Vector3(0, 0, 0.6)
    screen.scale = Vector3(1, 1, 10)
    slab.addChildNode(screen)
    root.addChildNode(slab)
    return root
  }

  /// The `screen` node of a tree made by `makeRoot(name:)`, as the app finds it
  /// (`childNode("displayer").childNode("screen")`).
  public static func screen(of root: Node) -> Node? {
    root.childNode(withName: "displayer", recursively: false)?
      .childNode(withName: "screen", recursively: false)
  }
}
