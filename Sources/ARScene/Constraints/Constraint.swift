/// A constraint on a node's orientation, evaluated once per frame (SceneKit's
/// `SCNConstraint` subclasses that ARSim needs).
public enum Constraint {
  /// Turns the node's front toward a target node.
  case lookAt(LookAtConstraint)
  /// Turns the node to face the point of view.
  case billboard(BillboardConstraint)
}
