import ARMath

extension Ray {
  /// Where this world ray meets the local XY plane (local z = 0) of a frame placed at
  /// `worldFromLocal` with a uniform `scale`: the plane a stroke root's spheres lie in (an
  /// `SCNPlane`'s plane, DESIGN §3), so a point on it becomes a child position.
  ///
  /// - Parameters:
  ///   - worldFromLocal: the frame's rigid pose (world, metres).
  ///   - scale: the frame's uniform scale (> 0): local lengths are `scale` times smaller than
  ///     world lengths.
  /// - Returns: the point in local coordinates (z = 0, in the scaled frame's units), in world
  ///   coordinates, and the ray parameter; `nil` (never traps) when the ray is parallel to the
  ///   plane (|local direction z| ≤ 1e-12 per unit of direction), the plane is behind the
  ///   origin or through it (parameter ≤ 0), the scale is not positive, or an input is not
  ///   finite.
  public func intersectionWithLocalXYPlane(worldFromLocal: RigidTransform, scale: Double) -> (
    local: Vector3, world: Vector3, parameter: Double
  )? {
    guard scale > 0, scale.isFinite, origin.isFinite, direction.isFinite else { return nil }
    let localFromWorld = worldFromLocal.inverse
    let o = localFromWorld.transformPoint(origin)  // unscaled local frame
    let d = localFromWorld.transformDirection(direction)
    guard abs(d.z) > 1e-12 * d.length else { return nil }
    let parameter = -o.z / d.z
    guard parameter > 0, parameter.isFinite else { return nil }
    var local = (o + d * parameter) / scale
    local.z = 0
    return (local, point(at: parameter), parameter)
  }
}
