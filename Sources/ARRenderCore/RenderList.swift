import ARMath
import ARScene

/// A value snapshot of a node graph for one frame: everything the renderer draws.
///
/// Built on the scene's thread by walking the graph once; afterwards it is plain data and can be
/// rendered on any thread. Items keep the graph's order (parents before children, children in
/// insertion order), which is also the order equal depths are resolved in (first drawn wins).
public struct RenderList: Sendable {
  /// Visible geometry in drawing order.
  package var items: [RenderItem]
  /// Directional lights (world frame).
  package var directionalLights: [DirectionalLight]
  /// Sum of ambient light colours × intensities (sRGB encoded values).
  package var ambient: SIMD3<Double>
  /// The environment drawn as the camera image before the items (nil: none).
  public var environment: EnvironmentGeometry?
  /// The camera pose the environment is seen from (world frame, ARKit's axes), when it is not
  /// the rendered camera's: with simulated tracking the camera image is the *true* camera's
  /// view and the content is drawn from the estimate (Documentation/Tracking.md, "What is
  /// rendered from which camera"). nil: the rendered camera's pose. Intrinsics, near and far
  /// are the rendered camera's.
  public var environmentWorldFromCamera: RigidTransform?

  /// Snapshots the subtree under `root` (the root included).
  ///
  /// Hidden nodes and their subtrees are skipped. An item's effective opacity is the product
  /// of the node opacities from the root down to it, its material's `transparency` and its
  /// diffuse colour's own alpha (SceneKit multiplies a colour's alpha into the transparency as
  /// well, and RealityKit's `SimpleMaterial(color:)` with alpha < 1 is translucent); items
  /// whose effective opacity is not above 0 are dropped. Directional lights shine along their
  /// node's world −Z; ambient lights add up. When the subtree holds no light at all, DESIGN §3's
  /// defaults apply: one white directional light shining straight down (−Y, as the
  /// remote-assist app) plus a white ambient light of intensity 0.3.
  /// - Complexity: O(n) in the nodes.
  public init(root: Node) {
    var unused: [VisitedGeometryNode] = []
    self.init(root: root, recording: false, visitedGeometry: &unused)
  }

  /// Snapshots the subtree under `root` as `init(root:)` does, and appends to
  /// `visitedGeometry` every node with geometry the walk met (hidden subtrees skipped, zero
  /// opacity kept), parents before children, with its world transform: the trace line reuses
  /// them instead of composing 10 000 transforms a second time (B2).
  /// - Complexity: O(n) in the nodes.
  public init(root: Node, visitedGeometry: inout [VisitedGeometryNode]) {
    self.init(root: root, recording: true, visitedGeometry: &visitedGeometry)
  }

  private init(root: Node, recording: Bool, visitedGeometry: inout [VisitedGeometryNode]) {
    var builder = Builder(recording: recording)
    // A list kept from the previous frame (`removeAll(keepingCapacity:)`) says how many items
    // to expect: B2's 10 000 items are not regrown a dozen times.
    builder.items.reserveCapacity(visitedGeometry.capacity)
    swap(&builder.visited, &visitedGeometry)
    builder.visit(root, parentWorld: .identity, parentOpacity: 1)
    swap(&builder.visited, &visitedGeometry)
    items = builder.items
    if builder.sawLight {
      directionalLights = builder.directionalLights
      ambient = builder.ambient
    } else {
      directionalLights = [
        DirectionalLight(direction: Vector3(0, -1, 0), color: SIMD3(1, 1, 1))
      ]
      ambient = SIMD3(0.3, 0.3, 0.3)
    }
  }

  /// Creates a list from parts (tests).
  package init(items: [RenderItem], directionalLights: [DirectionalLight], ambient: SIMD3<Double>) {
    self.items = items
    self.directionalLights = directionalLights
    self.ambient = ambient
  }

  private struct Builder {
    var items: [RenderItem] = []
    var directionalLights: [DirectionalLight] = []
    var ambient = SIMD3<Double>(0, 0, 0)
    var sawLight = false
    let recording: Bool
    var visited: [VisitedGeometryNode] = []

    init(recording: Bool) { self.recording = recording }

    mutating func visit(_ node: Node, parentWorld: Matrix4, parentOpacity: Double) {
      guard !node.isHidden else { return }
      let world = parentWorld * node.transform
      let opacity = parentOpacity * node.opacity
      if let light = node.light {
        sawLight = true
        let color =
          SIMD3(light.color.red, light.color.green, light.color.blue) * light.intensity
        switch light.kind {
        case .ambient:
          ambient += color
        case .directional:
          if let direction = world.transformDirection(Vector3(0, 0, -1)).normalized,
            direction.isFinite
          {
            directionalLights.append(DirectionalLight(direction: direction, color: color))
          }
        }
      }
      if let geometry = node.geometry {
        if recording { visited.append(VisitedGeometryNode(node: node, worldFromNode: world)) }
        let material = geometry.material
        let effective = opacity * material.transparency * material.diffuse.alpha
        if effective > 0 {
          items.append(
            RenderItem(
              shape: geometry.shape, material: geometry.material, worldFromNode: world,
              opacity: min(1, effective)))
        }
      }
      for child in node.childNodes {
        visit(child, parentWorld: world, parentOpacity: opacity)
      }
    }
  }
}

/// A node with geometry met by `RenderList.init(root:visitedGeometry:)`, with the world
/// transform the walk composed (SceneKit's `worldTransform`, world from node). Not `Sendable`:
/// it holds the node; use it on the scene's thread.
public struct VisitedGeometryNode {
  /// The node (its `geometry` is not nil).
  public let node: Node
  /// World from node.
  public let worldFromNode: Matrix4
}

/// One drawable: a shape with its material, world transform and effective opacity.
package struct RenderItem: Sendable {
  /// The shape in node-local coordinates.
  package var shape: Shape
  /// The material.
  package var material: Material
  /// World from node (SceneKit's `worldTransform`).
  package var worldFromNode: Matrix4
  /// Effective opacity in (0, 1]; below 1 the item is blended after the opaque ones.
  package var opacity: Double
}

/// A directional light in the world frame.
package struct DirectionalLight: Sendable {
  /// Unit direction the light travels (world frame), its node's −Z.
  package var direction: Vector3
  /// Colour × intensity (sRGB encoded).
  package var color: SIMD3<Double>
}
