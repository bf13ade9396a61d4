import ARMath

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A rotation as a unit axis and an angle in radians (SceneKit's `rotation` `SCNVector4`).
public struct AxisAngle: Hashable, Sendable {
  /// The rotation axis (unit length).
  public var axis: Vector3
  /// The angle in radians (right-hand rule about `axis`).
  public var angleRadians: Double
  /// Creates an axis-angle rotation.
  public init(axis: Vector3, angleRadians: Double) {
    self.axis = axis
    self.angleRadians = angleRadians
  }
}

extension Node {
  /// The orientation as axis-angle (SceneKit's `rotation`). Setting a zero axis gives the
  /// identity.
  public var rotation: AxisAngle {
    get { AxisAngle(axis: orientation.axis, angleRadians: orientation.angleRadians) }
    set { orientation = Quaternion(axis: newValue.axis, angleRadians: newValue.angleRadians) }
  }

  /// The orientation as Euler angles (pitch about X, yaw about Y, roll about Z), radians, as
  /// SceneKit's `eulerAngles`: R = Rx(pitch) · Ry(yaw) · Rz(roll) for column vectors, so roll
  /// applies first, then yaw, then pitch. Reading returns yaw in −π/2…π/2.
  public var eulerAngles: Vector3 {
    get {
      // R = Rx(a)·Ry(b)·Rz(c): R[0,2] = sin b, R[0,0] = cos b cos c, R[0,1] = −cos b sin c,
      // R[1,2] = −sin a cos b, R[2,2] = cos a cos b.
      let m = orientation.rotationMatrix
      let r02 = m.columns.2.x
      let yaw = asin(max(-1, min(1, r02)))
      if abs(r02) < 1 - 1e-12 {
        let pitch = atan2(-m.columns.2.y, m.columns.2.z)
        let roll = atan2(-m.columns.1.x, m.columns.0.x)
        return Vector3(pitch, yaw, roll)
      }
      // Gimbal lock (yaw = ±π/2): only pitch ± roll is defined; report roll = 0.
      let pitch = atan2(m.columns.1.z, m.columns.1.y)
      return Vector3(pitch, yaw, 0)
    }
    set {
      let rx = Quaternion(axis: .unitX, angleRadians: newValue.x)
      let ry = Quaternion(axis: .unitY, angleRadians: newValue.y)
      let rz = Quaternion(axis: .unitZ, angleRadians: newValue.z)
      orientation = rx * ry * rz
    }
  }

  /// The local transform `T(position) · R(orientation) · S(scale) · pivot⁻¹` (parent from
  /// node). A singular pivot is treated as the identity.
  public var transform: Matrix4 {
    let r = orientation.rotationMatrix
    var m = Matrix4(
      Vector4(r.columns.0 * scale.x, 0), Vector4(r.columns.1 * scale.y, 0),
      Vector4(r.columns.2 * scale.z, 0), Vector4(position, 1))
    if pivot != .identity, let inverse = pivot.inverse { m = m * inverse }
    return m
  }

  /// The world transform (world from node): the parents' transforms composed with this one.
  /// - Complexity: O(depth).
  public var worldTransform: Matrix4 {
    guard let p = parent else { return transform }
    return p.worldTransform * transform
  }

  /// The node's origin in world coordinates (metres).
  public var worldPosition: Vector3 { worldTransform.translation }

  /// Converts a point from this node's frame to `node`'s frame (to world when `node` is nil),
  /// as SceneKit's `convertPosition(_:to:)`. Returns the point unchanged if the target's
  /// transform is singular.
  public func convertPosition(_ p: Vector3, to node: Node?) -> Vector3 {
    let world = worldTransform.transformPoint(p)
    guard let node else { return world }
    guard let nodeFromWorld = node.worldTransform.inverse else { return world }
    return nodeFromWorld.transformPoint(world)
  }

  /// Converts a point from `node`'s frame (world when nil) to this node's frame, as SceneKit's
  /// `convertPosition(_:from:)`.
  public func convertPosition(_ p: Vector3, from node: Node?) -> Vector3 {
    let world = node?.worldTransform.transformPoint(p) ?? p
    guard let selfFromWorld = worldTransform.inverse else { return world }
    return selfFromWorld.transformPoint(world)
  }
}
