import ARMath

extension PlaneAnchor {
  /// Where a world ray meets the anchor's infinite plane (anchor-local y = 0), or `nil`.
  ///
  /// Planes are hit from either side: ARKit documents no side restriction for plane hits, and a
  /// detected table seen from below is still "a point on a real-world plane" (ARSim's reading;
  /// see Documentation/HitTesting.md). Returns `nil`, never traps, when the ray is parallel to
  /// the plane (|direction · normal| ≤ 1e-12 per metre of direction), when the plane is behind
  /// the origin or through it (parameter ≤ 0), or when the input is not finite.
  ///
  /// - Parameter ray: world frame, metres; any non-zero direction length.
  /// - Returns: `distance` from the ray origin to the hit in metres (parameter × direction
  ///   length), the hit in world coordinates and in the anchor's frame (`localPoint.y` = 0).
  public func intersection(with ray: Ray) -> (
    distance: Double, worldPoint: Vector3, localPoint: Vector3
  )? {
    let anchorFromWorld = worldFromAnchor.inverse
    let origin = anchorFromWorld.transformPoint(ray.origin)  // anchor frame
    let direction = anchorFromWorld.transformDirection(ray.direction)  // anchor frame
    let directionLength = direction.length
    guard directionLength > 0, origin.isFinite, direction.isFinite,
      abs(direction.y) > 1e-12 * directionLength
    else { return nil }
    let parameter = -origin.y / direction.y
    guard parameter > 0 else { return nil }
    var local = origin + direction * parameter
    local.y = 0
    return (parameter * directionLength, ray.point(at: parameter), local)
  }

  /// Whether an anchor-frame point lies in the extent rectangle `center ± extent/2` (local X
  /// and Z; y ignored), edges included, as ARKit's `existingPlaneUsingExtent`.
  public func extentContains(localPoint p: Vector3) -> Bool {
    abs(p.x - center.x) <= extent.x / 2 && abs(p.z - center.z) <= extent.z / 2
  }

  /// Whether an anchor-frame point lies in the plane's shape, as ARKit's
  /// `existingPlaneUsingGeometry`: the convex `boundary` polygon (edges included, either
  /// winding), or the extent rectangle when `boundary` is `nil`. A polygon with fewer than
  /// three vertices or zero area contains nothing.
  ///
  /// - Complexity: O(n) in the polygon's vertices.
  public func geometryContains(localPoint p: Vector3) -> Bool {
    guard let polygon = boundary else { return extentContains(localPoint: p) }
    return Self.convexPolygon(polygon, contains: p)
  }

  /// Convex polygon containment in the XZ plane: p is inside when it is on the same side of
  /// every edge (2-D cross products all ≥ 0 or all ≤ 0, with 1e-12 m² slack for points on an
  /// edge).
  static func convexPolygon(_ polygon: [Vector3], contains p: Vector3) -> Bool {
    guard polygon.count >= 3 else { return false }
    var twiceArea = 0.0
    var hasPositive = false
    var hasNegative = false
    for index in polygon.indices {
      let a = polygon[index]
      let b = polygon[(index + 1) % polygon.count]
      twiceArea += a.x * b.z - b.x * a.z
      // z-component of (b − a) × (p − a) in (x, z) coordinates.
      let cross = (b.x - a.x) * (p.z - a.z) - (b.z - a.z) * (p.x - a.x)
      if cross > 1e-12 { hasPositive = true }
      if cross < -1e-12 { hasNegative = true }
    }
    guard abs(twiceArea) > 1e-12 else { return false }
    return !(hasPositive && hasNegative)
  }
}
