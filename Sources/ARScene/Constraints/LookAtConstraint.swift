import ARMath

/// Orients a node so its `localFront` points at a target node, as SceneKit's
/// `SCNLookAtConstraint`. Position and scale are kept.
///
/// With `isGimbalLockEnabled` (what every source app sets) and the default front −Z, the node's
/// world axes become (DESIGN §3):
/// `z = normalize(nodePosition − targetPosition)`, `x = normalize(worldUp × z)`, `y = z × x`.
/// A non-default `localFront` is first rotated onto −Z by the shortest arc.
///
/// Degenerate cases (defined here, SceneKit leaves them undocumented):
/// - the node sits on the target: the orientation is left unchanged;
/// - `z ∥ worldUp` (looking straight up or down): x is the node's previous world +X axis made
///   orthogonal to z; if that is parallel to z too, x is the world axis least aligned with z.
///
/// Without gimbal lock the node turns by the shortest arc from its current front to the target
/// direction (roll is free to drift, as SceneKit's documentation says).
public struct LookAtConstraint {
  /// The node looked at (its world position plus `targetOffset`).
  public var target: Node
  /// The up direction in world space (SceneKit default (0, 1, 0)).
  public var worldUp: Vector3 = .unitY
  /// The node-local direction that faces the target (SceneKit default (0, 0, −1)).
  public var localFront: Vector3 = Vector3(0, 0, -1)
  /// An offset in the target's local frame added to its position (default zero).
  public var targetOffset: Vector3 = .zero
  /// Whether roll is locked so the node's horizon stays level (SceneKit default false).
  public var isGimbalLockEnabled = false

  /// Creates a constraint looking at `target`.
  public init(target: Node, isGimbalLockEnabled: Bool = false) {
    self.target = target
    self.isGimbalLockEnabled = isGimbalLockEnabled
  }

  /// The world orientation the constraint gives a node at `nodePosition` whose current world
  /// rotation is `current`, or `nil` when the node sits on the target.
  public func worldRotation(nodePosition: Vector3, current: Matrix3) -> Matrix3? {
    let targetPosition = target.worldTransform.transformPoint(targetOffset)
    guard let toTarget = (targetPosition - nodePosition).normalized else { return nil }
    guard let front = localFront.normalized else { return nil }
    if !isGimbalLockEnabled {
      let currentFront = current.multiply(front)
      let arc = Quaternion.shortestArc(from: currentFront, to: toTarget).rotationMatrix
      return arc * current
    }
    let z = -toTarget
    let up = worldUp.normalized ?? .unitY
    let x: Vector3
    if let crossed = up.cross(z).normalized, up.cross(z).length > 1e-9 {
      x = crossed
    } else if let previous = (current.columns.0 - z * z.dot(current.columns.0)).normalized,
      (current.columns.0 - z * z.dot(current.columns.0)).length > 1e-9
    {
      x = previous
    } else {
      let axes = [Vector3.unitX, .unitY, .unitZ]
      let least = axes.min { abs($0.dot(z)) < abs($1.dot(z)) } ?? .unitX
      x = (least - z * z.dot(least)).normalized ?? .unitX
    }
    let basis = Matrix3(x, z.cross(x), z)
    // Rotate localFront onto −Z first, so the basis maps it onto the target direction.
    let frontToMinusZ = Quaternion.shortestArc(from: front, to: Vector3(0, 0, -1)).rotationMatrix
    return basis * frontToMinusZ
  }
}
