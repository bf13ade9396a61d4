import ARMath
import ARScene

/// Where the `screen` and `surface` receiver modes put a helper point (Documentation/StrokeLog.md):
/// both start from the ray through the touched pixel of the frame the helper saw (τ_seen).
public enum StrokePlacement {
  /// The hit-test types `surface` mode casts, in ARKit's order: detected planes inside their
  /// geometry, then inside their extent, then the estimated horizontal plane (at most one,
  /// dropped when a detected plane is hit).
  public static let surfaceTypes: [HitTestType] = [
    .existingPlaneUsingGeometry, .existingPlaneUsingExtent, .estimatedHorizontalPlane,
  ]

  /// A point placed on a surface.
  public struct SurfaceHit: Hashable, Sendable {
    /// The sphere centre, world metres: on the ray, at `radius` from the plane on the camera's
    /// side.
    public var centre: Vector3
    /// The hit-test type that found the plane.
    public var type: HitTestType
    /// The plane anchor hit (`nil` for the estimated plane).
    public var anchor: PlaneAnchor?
  }

  /// The world pose a stroke root at `rootPosition` takes under its gimbal-locked look-at at a
  /// camera at `cameraPosition` (DESIGN §3: z = normalize(root − camera), x = normalize(up × z),
  /// y = z × x), or `nil` when the root sits on the camera.
  public static func sheetPose(rootPosition: Vector3, cameraPosition: Vector3) -> RigidTransform? {
    let target = Node()
    target.position = cameraPosition
    let constraint = LookAtConstraint(target: target, isGimbalLockEnabled: true)
    guard
      let rotation = constraint.worldRotation(nodePosition: rootPosition, current: .identity),
      let q = Quaternion(rotationMatrix: rotation).normalized
    else { return nil }
    return RigidTransform(rotation: q, translation: rootPosition)
  }

  /// `screen` mode: the child position under a root posed at `rootPose` with uniform
  /// `rootScale` that puts the sphere centre on the root's sheet (its local XY plane) where
  /// `ray` crosses it, so the centre projects onto the ray's pixel. Root-local units (world
  /// metres / `rootScale`); `nil` when the ray misses the sheet (parallel, or the sheet behind
  /// the ray's origin).
  public static func sheetPosition(ray: Ray, rootPose: RigidTransform, rootScale: Double)
    -> Vector3?
  {
    ray.intersectionWithLocalXYPlane(worldFromLocal: rootPose, scale: rootScale)?.local
  }

  /// `surface` mode: the first result of a hit test at output pixel (u, v) of `camera` (the
  /// τ_seen viewport camera) with `surfaceTypes`, and the centre of the sphere of world
  /// `radius` on that pixel's ray that touches the plane found. `nil` when nothing is hit, or
  /// when the camera is within `radius` of the plane hit (no touching sphere lies in front).
  public static func surfaceHit(
    u: Double, v: Double, camera: Camera, scene: HitTestScene, radius: Double
  ) -> SurfaceHit? {
    guard let first = scene.hitTest(u: u, v: v, types: surfaceTypes, camera: camera).first
    else { return nil }
    let ray = camera.worldRay(u: u, v: v)
    let contact: (centre: Vector3, parameter: Double)?
    if let anchor = first.anchor {
      contact = SphereContact.centre(ray: ray, anchor: anchor, radius: radius)
    } else {
      contact = SphereContact.centre(
        ray: ray, planePoint: first.worldPosition, planeNormal: .unitY, radius: radius)
    }
    guard let contact else { return nil }
    return SurfaceHit(centre: contact.centre, type: first.type, anchor: first.anchor)
  }
}
