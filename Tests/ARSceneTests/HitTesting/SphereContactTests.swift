import ARMath
import ARScene
import Testing

/// Hand-computed cases: a camera 1.5 m above the floor y = 0 looking 45° down along −Z. The unit
/// ray (0, −1, −1)/√2 meets the floor at (0, 0, −1.5); a sphere of radius r touches the floor
/// when its centre is at height r, i.e. at (0, r, −(1.5 − r)).
@Suite struct SphereContactTests {
  private let down45 = Ray(
    origin: Vector3(0, 1.5, 0), direction: Vector3(0, -1, -1) / 2.0.squareRoot())

  @Test("a 45° ray: the centre sits at height r, on the ray, 1.5 − r in front")
  func floor45() throws {
    let r = 0.01875
    let hit = try #require(
      SphereContact.centre(ray: down45, planePoint: .zero, planeNormal: .unitY, radius: r))
    #expect(
      hit.centre.isApproximatelyEqual(to: Vector3(0, r, -(1.5 - r)), absoluteTolerance: 1e-12))
    #expect(abs(hit.parameter - (1.5 - r) * 2.0.squareRoot()) < 1e-12)
  }

  @Test("from below the plane the sphere hangs under it; the normal's sign does not matter")
  func fromBelow() throws {
    let ray = Ray(origin: Vector3(0.2, -1, 0), direction: Vector3(0, 2, 0))
    for normal in [Vector3.unitY, Vector3(0, -3, 0)] {
      let hit = try #require(
        SphereContact.centre(
          ray: ray, planePoint: Vector3(5, 0, 7), planeNormal: normal, radius: 0.1))
      #expect(hit.centre.isApproximatelyEqual(to: Vector3(0.2, -0.1, 0), absoluteTolerance: 1e-12))
      #expect(abs(hit.parameter - 0.45) < 1e-12)  // direction length 2: 0.9 m = 0.45 units
    }
  }

  @Test("no contact: parallel, pointing away, origin within the radius, non-finite input")
  func noContact() {
    let n = Vector3.unitY
    #expect(
      SphereContact.centre(
        ray: Ray(origin: Vector3(0, 1, 0), direction: .unitX), planePoint: .zero, planeNormal: n,
        radius: 0.1) == nil)
    #expect(
      SphereContact.centre(
        ray: Ray(origin: Vector3(0, 1, 0), direction: .unitY), planePoint: .zero, planeNormal: n,
        radius: 0.1) == nil)
    #expect(
      SphereContact.centre(
        ray: Ray(origin: Vector3(0, 0.05, 0), direction: -Vector3.unitY), planePoint: .zero,
        planeNormal: n, radius: 0.1) == nil)
    #expect(
      SphereContact.centre(ray: down45, planePoint: .zero, planeNormal: .zero, radius: 0.1) == nil)
    #expect(
      SphereContact.centre(ray: down45, planePoint: .zero, planeNormal: n, radius: .nan) == nil)
  }

  @Test("a tilted anchor: the centre is on the ray at exactly r from the plane (1e-12 m)")
  func tiltedAnchor() throws {
    let anchor = PlaneAnchor(
      identifier: "ramp",
      worldFromAnchor: RigidTransform(
        rotation: Quaternion(axis: .unitX, angleRadians: 0.5), translation: Vector3(0.3, -0.2, -2)),
      extent: Vector3(1, 0, 1))
    let ray = Ray(
      origin: Vector3(0.1, 0.4, 0.2), direction: Vector3(0.05, -0.4, -1).normalized ?? .zero)
    let hit = try #require(SphereContact.centre(ray: ray, anchor: anchor, radius: 0.01875))
    #expect(abs(SphereContact.height(of: hit.centre, above: anchor) - 0.01875) < 1e-12)
    // On the ray: the offset from the origin is parallel to the direction.
    let offset = hit.centre - ray.origin
    #expect(offset.cross(ray.direction).length < 1e-12)
    #expect(offset.dot(ray.direction) > 0)
    // The contact point (centre − r·n) is where the sphere meets the plane: height 0.
    let normal = anchor.worldFromAnchor.transformDirection(.unitY)
    #expect(abs(SphereContact.height(of: hit.centre - normal * 0.01875, above: anchor)) < 1e-12)
  }
}

@Suite struct RayLocalPlaneTests {
  @Test("a frame 1 m ahead, scale 1.25: world (0.1, 0.2, −1) is local (0.08, 0.16, 0)")
  func identityFrame() throws {
    let frame = RigidTransform(rotation: .identity, translation: Vector3(0, 0, -1))
    let ray = Ray(origin: .zero, direction: Vector3(0.1, 0.2, -1))
    let hit = try #require(ray.intersectionWithLocalXYPlane(worldFromLocal: frame, scale: 1.25))
    #expect(hit.local.isApproximatelyEqual(to: Vector3(0.08, 0.16, 0), absoluteTolerance: 1e-12))
    #expect(hit.world.isApproximatelyEqual(to: Vector3(0.1, 0.2, -1), absoluteTolerance: 1e-12))
    #expect(abs(hit.parameter - 1) < 1e-12)
  }

  @Test("a root turned to face the camera (180° about Y): local x is world −x")
  func facingFrame() throws {
    let frame = RigidTransform(
      rotation: Quaternion(axis: .unitY, angleRadians: .pi), translation: Vector3(0, 0, -1))
    let ray = Ray(origin: .zero, direction: Vector3(0.1, 0.2, -1))
    let hit = try #require(ray.intersectionWithLocalXYPlane(worldFromLocal: frame, scale: 1.25))
    #expect(hit.local.isApproximatelyEqual(to: Vector3(-0.08, 0.16, 0), absoluteTolerance: 1e-12))
  }

  @Test("parallel, behind, zero scale: nil")
  func none() {
    let frame = RigidTransform(rotation: .identity, translation: Vector3(0, 0, -1))
    #expect(
      Ray(origin: .zero, direction: .unitX).intersectionWithLocalXYPlane(
        worldFromLocal: frame, scale: 1) == nil)
    #expect(
      Ray(origin: .zero, direction: .unitZ).intersectionWithLocalXYPlane(
        worldFromLocal: frame, scale: 1) == nil)
    #expect(
      Ray(origin: .zero, direction: -Vector3.unitZ).intersectionWithLocalXYPlane(
        worldFromLocal: frame, scale: 0) == nil)
  }
}
