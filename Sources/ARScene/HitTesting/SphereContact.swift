import ARMath

/// Where a sphere moved along a ray first touches a plane: the geometry of a stroke sphere that
/// both projects onto the touched pixel (its centre on the pixel's ray) and rests on the surface
/// the ray hit (remote assist's `surface` mode, Documentation/StrokeLog.md).
public enum SphereContact {
  /// The centre of the sphere of `radius` whose centre lies on `ray` and which touches the
  /// plane through `planePoint` with normal `planeNormal` from the ray origin's side: the point
  /// of the ray at height `radius` above the plane (on the origin's side).
  ///
  /// With unit normal n, h₀ = (origin − planePoint)·n and σ = sign(h₀), the parameter is
  /// `t = (σ·radius − h₀) / (direction·n)`.
  ///
  /// - Parameters:
  ///   - ray: world frame, metres; any non-zero direction length (`t` is in its units).
  ///   - planePoint, planeNormal: the plane, world frame; the normal need not be unit.
  ///   - radius: metres, ≥ 0.
  /// - Returns: the centre (world, metres) and its ray parameter, or `nil` (never traps) when
  ///   the ray is parallel to the plane or points away from it, when the origin is within
  ///   `radius` of the plane (no touching sphere lies in front of it), or when an input is not
  ///   finite.
  public static func centre(
    ray: Ray, planePoint: Vector3, planeNormal: Vector3, radius: Double
  ) -> (centre: Vector3, parameter: Double)? {
    guard let n = planeNormal.normalized, radius >= 0, radius.isFinite, ray.origin.isFinite,
      ray.direction.isFinite, planePoint.isFinite
    else { return nil }
    let height = (ray.origin - planePoint).dot(n)
    let approach = ray.direction.dot(n)
    guard abs(height) > radius, abs(approach) > 1e-12 * ray.direction.length else { return nil }
    let side: Double = height > 0 ? 1 : -1
    // Moving towards the plane means the height shrinks: approach has the opposite sign.
    guard approach * side < 0 else { return nil }
    let parameter = (side * radius - height) / approach
    guard parameter > 0, parameter.isFinite else { return nil }
    return (ray.point(at: parameter), parameter)
  }

  /// The centre of a sphere of `radius` on `ray` touching `anchor`'s (infinite) plane: the
  /// anchor's local XZ plane, normal its local +Y (see `centre(ray:planePoint:planeNormal:radius:)`).
  public static func centre(ray: Ray, anchor: PlaneAnchor, radius: Double) -> (
    centre: Vector3, parameter: Double
  )? {
    centre(
      ray: ray, planePoint: anchor.worldFromAnchor.translation,
      planeNormal: anchor.worldFromAnchor.transformDirection(.unitY), radius: radius)
  }

  /// The signed distance of `point` from `anchor`'s plane along its local +Y (metres).
  public static func height(of point: Vector3, above anchor: PlaneAnchor) -> Double {
    anchor.worldFromAnchor.inverse.transformPoint(point).y
  }
}
