import ARMath

/// A node of the scene graph, after SceneKit's `SCNNode`.
///
/// A reference type, like SceneKit's: sessions hold nodes (stroke roots, the point of view) and
/// mutate them in place, and constraints refer to other nodes. Scene logic is single-threaded;
/// the renderer reads a value snapshot (`RenderList`), never the graph.
///
/// Transform (DESIGN §3, as SceneKit): `transform = T(position) · R(orientation) · S(scale) ·
/// pivot⁻¹`; `worldTransform = parent.worldTransform · transform`. Units: metres, radians.
public final class Node {
  /// A name for lookup (`childNode(withName:recursively:)`) and for trace output.
  public var name: String?
  /// Position in the parent's frame (metres).
  public var position: Vector3 = .zero
  /// Orientation relative to the parent (unit quaternion, x y z w).
  public var orientation: Quaternion = .identity
  /// Scale along local axes (1 = none).
  public var scale: Vector3 = .one
  /// The pivot: the local frame in which position, orientation and scale apply (identity =
  /// the node's origin); its inverse is applied last.
  public var pivot: Matrix4 = .identity
  /// Whether this node and its subtree are skipped by rendering and hit-testing.
  public var isHidden = false
  /// Opacity multiplier 0…1 for this node and its subtree (SceneKit's `opacity`).
  public var opacity = 1.0
  /// The geometry drawn at this node, if any.
  public var geometry: Geometry?
  /// A light placed at this node, if any (directional lights shine along local −Z).
  public var light: Light?
  /// Constraints evaluated once per frame by `evaluateConstraints(pointOfView:)`.
  public var constraints: [Constraint] = []
  /// The plane anchor this node draws (reported as `"anchor"` in trace.jsonl), as ARSCNView
  /// ties a node to its `ARAnchor`.
  public var anchorIdentifier: String?
  /// What session kinds attached to the node (`NodeComponent`), in the order they were set;
  /// their trace fields follow that order.
  public var components: [any NodeComponent] = []

  /// The children, in insertion order (drawing and lookup order).
  public private(set) var childNodes: [Node] = []
  /// The parent, or `nil` for a root or a detached node.
  public private(set) weak var parent: Node?

  /// Creates a node.
  public init(name: String? = nil, geometry: Geometry? = nil) {
    self.name = name
    self.geometry = geometry
  }

  /// Appends `child`, removing it from its previous parent first (as SceneKit).
  ///
  /// Precondition: `child` is not `self` or one of its ancestors (trap).
  public func addChildNode(_ child: Node) {
    var ancestor: Node? = self
    while let a = ancestor {
      precondition(a !== child, "a node cannot be added under itself")
      ancestor = a.parent
    }
    child.removeFromParentNode()
    child.parent = self
    childNodes.append(child)
  }

  /// Detaches this node from its parent (no effect on a root).
  public func removeFromParentNode() {
    guard let p = parent else { return }
    p.childNodes.removeAll { $0 === self }
    parent = nil
  }

  /// The first node named `name` among the children (breadth-first over the subtree when
  /// `recursively`), or `nil`.
  /// - Complexity: O(n) in the nodes searched.
  public func childNode(withName name: String, recursively: Bool) -> Node? {
    var queue = childNodes[...]
    while let node = queue.popFirst() {
      if node.name == name { return node }
      if recursively { queue.append(contentsOf: node.childNodes) }
    }
    return nil
  }

  /// Calls `body` on this node and every descendant, parents before children, in child order.
  /// - Complexity: O(n).
  public func enumerateHierarchy(_ body: (Node) -> Void) {
    body(self)
    for child in childNodes { child.enumerateHierarchy(body) }
  }
}
