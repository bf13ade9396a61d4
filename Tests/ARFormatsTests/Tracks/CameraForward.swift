import ARMath

extension RigidTransform {
  /// The camera's forward direction (−Z) in world coordinates.
  var forward: Vector3 { transformDirection(Vector3(0, 0, -1)) }
}
