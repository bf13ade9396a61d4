import ARMath

extension Node {
  /// Evaluates the constraints of this node and its subtree, parents before children, against
  /// the current world transforms; `pointOfView` is the rendering camera's node (billboards).
  ///
  /// The solved world rotation is written back into `orientation` (SceneKit writes its
  /// presentation node; ARSim has no separate presentation tree). When several constraints are
  /// set they apply in order, each seeing the previous result.
  /// - Complexity: O(n · depth).
  public func evaluateConstraints(pointOfView: Node) {
    enumerateHierarchy { node in node.applyOwnConstraints(pointOfView: pointOfView) }
  }

  private func applyOwnConstraints(pointOfView: Node) {
    for constraint in constraints {
      let world = worldTransform
      let position = world.translation
      let current = Self.rotationPart(of: world.upperLeft3x3)
      let solved: Matrix3?
      switch constraint {
      case .lookAt(let c):
        solved = c.worldRotation(nodePosition: position, current: current)
      case .billboard(let c):
        solved = c.worldRotation(
          nodePosition: position, worldFromPointOfView: pointOfView.worldTransform)
      }
      guard let worldRotation = solved else { continue }
      setWorldRotation(worldRotation)
    }
  }

  /// Sets `orientation` so the node's world rotation (scale removed) is `worldRotation`.
  private func setWorldRotation(_ worldRotation: Matrix3) {
    // parentWorld · T · R · S · pivot⁻¹: with a rotation-and-uniform-scale parent and no pivot,
    // local R = parentRotationᵀ · worldRotation.
    let parentRotation = parent.map { Self.rotationPart(of: $0.worldTransform.upperLeft3x3) }
    let local = (parentRotation?.transposed ?? .identity) * worldRotation
    if let q = Quaternion(rotationMatrix: local).normalized { orientation = q }
  }

  /// The rotation of a rotation-and-scale matrix (columns normalised and re-orthogonalised).
  static func rotationPart(of m: Matrix3) -> Matrix3 {
    m.orthonormalized ?? .identity
  }
}
