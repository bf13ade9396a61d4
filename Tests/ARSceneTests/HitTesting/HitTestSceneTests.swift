import ARMath
import ARScene
import Testing

/// Fixtures: a 101×101 camera (fx = fy = 100, principal point (50, 50)) at height `h` looking
/// straight down (worldFromCamera = Rx(−90°): camera −Z → world −Y, camera +Y → world −Z).
/// Pixel (u, v) then has world direction ∝ ((u − 50)/100, −1, (v − 50)/100), so it meets the
/// floor y = 0 at (h·(u − 50)/100, 0, h·(v − 50)/100), at distance h·√(1 + a² + b²).
private let intrinsics = CameraIntrinsics(fx: 100, fy: 100, cx: 50, cy: 50, width: 101, height: 101)

private func downCamera(height: Double, x: Double = 0, z: Double = 0) -> Camera {
  Camera(
    intrinsics: intrinsics,
    worldFromCamera: RigidTransform(
      rotation: Quaternion(axis: .unitX, angleRadians: -.pi / 2),
      translation: Vector3(x, height, z)))
}

private func floor(
  _ identifier: String = "floor", y: Double = 0, center: Vector3 = .zero,
  extent: Vector3 = Vector3(2, 0, 1), boundary: [Vector3]? = nil
) -> PlaneAnchor {
  PlaneAnchor(
    identifier: identifier,
    worldFromAnchor: RigidTransform(rotation: .identity, translation: Vector3(0, y, 0)),
    center: center, extent: extent, boundary: boundary)
}

@Suite struct HitTestSceneTests {
  @Test("the extent rectangle keeps a hit just inside its X edge and drops one just outside")
  func extentEdgeX() throws {
    // Height 2: x = (u − 50)/50, so u = 99.95 → x = 0.999 and u = 100.05 → x = 1.001.
    let scene = HitTestScene(planes: [floor()])
    let camera = downCamera(height: 2)
    let inside = scene.hitTest(u: 99.95, v: 50, types: [.existingPlaneUsingExtent], camera: camera)
    let hit = try #require(inside.first)
    #expect(inside.count == 1)
    #expect(hit.type == .existingPlaneUsingExtent)
    #expect(hit.anchor?.identifier == "floor")
    #expect(
      hit.worldPosition.isApproximatelyEqual(to: Vector3(0.999, 0, 0), absoluteTolerance: 1e-12))
    #expect(
      hit.distance.isApproximatelyEqual(
        to: 2 * (1 + 0.4995 * 0.4995).squareRoot(), absoluteTolerance: 1e-12))
    let outside = scene.hitTest(
      u: 100.05, v: 50, types: [.existingPlaneUsingExtent], camera: camera)
    #expect(outside.isEmpty)
  }

  @Test("the extent rectangle is centred on `center` along Z")
  func extentEdgeZWithCenter() {
    // center z = 0.2, extent z = 1 → z ∈ [−0.3, 0.7]; z = (v − 50)/50.
    let scene = HitTestScene(planes: [floor(center: Vector3(0, 0, 0.2))])
    let camera = downCamera(height: 2)
    let types: [HitTestType] = [.existingPlaneUsingExtent]
    #expect(scene.hitTest(u: 50, v: 84.95, types: types, camera: camera).count == 1)  // 0.699
    #expect(scene.hitTest(u: 50, v: 85.05, types: types, camera: camera).isEmpty)  // 0.701
    #expect(scene.hitTest(u: 50, v: 35.05, types: types, camera: camera).count == 1)  // −0.299
    #expect(scene.hitTest(u: 50, v: 34.95, types: types, camera: camera).isEmpty)  // −0.301
  }

  @Test("existingPlane ignores the extent: a hit beyond it is still returned")
  func infinitePlane() throws {
    let scene = HitTestScene(planes: [floor()])
    let camera = downCamera(height: 2)
    // u = 150 → x = 2, well beyond the extent's x ≤ 1.
    #expect(
      scene.hitTest(u: 150, v: 50, types: [.existingPlaneUsingExtent], camera: camera).isEmpty)
    let hit = try #require(
      scene.hitTest(u: 150, v: 50, types: [.existingPlane], camera: camera).first)
    #expect(hit.type == .existingPlane)
    #expect(hit.worldPosition.isApproximatelyEqual(to: Vector3(2, 0, 0), absoluteTolerance: 1e-12))
    #expect(hit.distance.isApproximatelyEqual(to: 2 * 2.0.squareRoot(), absoluteTolerance: 1e-12))
  }

  @Test("two planes under the pixel come nearest first, whatever their order in the scene")
  func orderingByDistance() {
    let scene = HitTestScene(planes: [
      floor("floor", y: 0, extent: Vector3(4, 0, 4)),
      floor("table", y: 0.5, extent: Vector3(4, 0, 4)),
    ])
    let results = scene.hitTest(
      u: 50, v: 50, types: [.existingPlaneUsingExtent], camera: downCamera(height: 2))
    #expect(results.map { $0.anchor?.identifier } == ["table", "floor"])
    #expect(results.map(\.distance) == [1.5, 2])
  }

  @Test("results are grouped in the requested type order and a repeated type is searched once")
  func requestedTypeOrder() {
    let scene = HitTestScene(planes: [floor()])
    // u = 150 hits only the infinite plane; u = 50 hits both.
    let types: [HitTestType] = [.existingPlane, .existingPlaneUsingExtent, .existingPlane]
    let results = scene.hitTest(u: 50, v: 50, types: types, camera: downCamera(height: 2))
    #expect(results.map(\.type) == [.existingPlane, .existingPlaneUsingExtent])
  }

  @Test("the estimated floor is suppressed when an existing plane is hit and returned when none is")
  func estimatedPlaneSuppression() throws {
    let scene = HitTestScene(planes: [floor()], estimatedFloorY: -1)
    let camera = downCamera(height: 2)
    let types: [HitTestType] = [.estimatedHorizontalPlane, .existingPlaneUsingExtent]
    let onPlane = scene.hitTest(u: 50, v: 50, types: types, camera: camera)
    #expect(onPlane.map(\.type) == [.existingPlaneUsingExtent])
    // u = 150: outside the extent; the floor at y = −1 is 3 m down: hit at (3, −1, 0), 3√2 m.
    let offPlane = scene.hitTest(u: 150, v: 50, types: types, camera: camera)
    let estimate = try #require(offPlane.first)
    #expect(offPlane.count == 1)
    #expect(estimate.type == .estimatedHorizontalPlane)
    #expect(estimate.anchor == nil)
    #expect(
      estimate.worldPosition.isApproximatelyEqual(to: Vector3(3, -1, 0), absoluteTolerance: 1e-12))
    #expect(
      estimate.distance.isApproximatelyEqual(to: 3 * 2.0.squareRoot(), absoluteTolerance: 1e-12))
  }

  @Test("a ray parallel to a plane hits nothing")
  func parallelRay() {
    // Identity pose: the centre ray is (0, 0, −1), parallel to the floor 1 m below.
    let camera = Camera(intrinsics: intrinsics, worldFromCamera: .identity)
    let scene = HitTestScene(
      planes: [floor(y: -1, extent: Vector3(10, 0, 10))], estimatedFloorY: -1)
    #expect(
      scene.hitTest(
        u: 50, v: 50, types: [.existingPlane, .estimatedHorizontalPlane], camera: camera
      ).isEmpty)
    // One pixel lower the ray descends 1 cm per metre: it meets y = −1 at z = −100.
    let lower = scene.hitTest(u: 50, v: 51, types: [.existingPlane], camera: camera)
    #expect(
      lower.first?.worldPosition.isApproximatelyEqual(
        to: Vector3(0, -1, -100), absoluteTolerance: 1e-9) == true)
  }

  @Test("a plane behind the camera hits nothing")
  func planeBehindCamera() {
    // The camera at y = 2 looks down; a ceiling at y = 3 lies behind it.
    let scene = HitTestScene(
      planes: [floor("ceiling", y: 3, extent: Vector3(10, 0, 10))], estimatedFloorY: 3)
    let results = scene.hitTest(
      u: 50, v: 50, types: [.existingPlane, .estimatedHorizontalPlane],
      camera: downCamera(height: 2))
    #expect(results.isEmpty)
  }

  @Test("a plane is hit from either side")
  func eitherSide() throws {
    // A wall whose normal (local +Y) is world −Z, i.e. facing away from a camera looking down −Z.
    let wall = PlaneAnchor(
      identifier: "wall",
      worldFromAnchor: RigidTransform(
        rotation: Quaternion(axis: .unitX, angleRadians: -.pi / 2), translation: Vector3(0, 0, -3)),
      extent: Vector3(2, 0, 2), alignment: .vertical)
    let camera = Camera(intrinsics: intrinsics, worldFromCamera: .identity)
    let hit = try #require(
      HitTestScene(planes: [wall]).hitTest(
        u: 50, v: 50, types: [.existingPlaneUsingExtent], camera: camera
      ).first)
    #expect(hit.distance.isApproximatelyEqual(to: 3, absoluteTolerance: 1e-12))
    #expect(hit.worldPosition.isApproximatelyEqual(to: Vector3(0, 0, -3), absoluteTolerance: 1e-12))
  }

  @Test("a plane hit carries the anchor's rotation and the hit point as translation")
  func hitTransform() throws {
    let yaw = Quaternion(axis: .unitY, angleRadians: .pi / 6)
    let anchor = PlaneAnchor(
      identifier: "yawed",
      worldFromAnchor: RigidTransform(rotation: yaw, translation: Vector3(0.3, 0, 0)),
      extent: Vector3(2, 0, 2))
    // Height 2, pixel (75, 60): world (0.5, 0, 0.2).
    let hit = try #require(
      HitTestScene(planes: [anchor]).hitTest(
        u: 75, v: 60, types: [.existingPlane], camera: downCamera(height: 2)
      ).first)
    let expected = Matrix4(rotation: yaw.rotationMatrix, translation: Vector3(0.5, 0, 0.2))
    #expect(hit.worldTransform.isApproximatelyEqual(to: expected, absoluteTolerance: 1e-12))
  }

  @Test("existingPlaneUsingGeometry respects a convex polygon, edges included, either winding")
  func convexPolygon() {
    // Diamond |x| + |z| ≤ 1 inside a 2 × 2 extent; height 2: x = (u − 50)/50, z = (v − 50)/50.
    let diamond = [Vector3(1, 0, 0), Vector3(0, 0, 1), Vector3(-1, 0, 0), Vector3(0, 0, -1)]
    for polygon in [diamond, diamond.reversed()] {
      let scene = HitTestScene(planes: [floor(extent: Vector3(2, 0, 2), boundary: polygon)])
      let camera = downCamera(height: 2)
      let geometry: [HitTestType] = [.existingPlaneUsingGeometry]
      // (0.6, 0.3) inside; (0.5, 0.5) on an edge; (0.6, 0.45) outside the diamond.
      #expect(scene.hitTest(u: 80, v: 65, types: geometry, camera: camera).count == 1)
      #expect(scene.hitTest(u: 75, v: 75, types: geometry, camera: camera).count == 1)
      #expect(scene.hitTest(u: 80, v: 72.5, types: geometry, camera: camera).isEmpty)
      #expect(
        scene.hitTest(u: 80, v: 72.5, types: [.existingPlaneUsingExtent], camera: camera).count == 1
      )
    }
  }

  @Test("containment tests: polygon edges, degenerate polygons, and the extent fallback")
  func containment() {
    let triangle = [Vector3(0, 0, 0), Vector3(1, 0, 0), Vector3(0, 0, 1)]
    let anchor = floor(extent: Vector3(4, 0, 4), boundary: triangle)
    #expect(anchor.geometryContains(localPoint: Vector3(0.5, 0, 0.5)))  // hypotenuse
    #expect(anchor.geometryContains(localPoint: Vector3(0.25, 0, 0.25)))
    #expect(!anchor.geometryContains(localPoint: Vector3(0.5, 0, 0.500001)))
    #expect(!anchor.geometryContains(localPoint: Vector3(-0.000001, 0, 0.5)))
    let line = floor(boundary: [Vector3(0, 0, 0), Vector3(1, 0, 0), Vector3(2, 0, 0)])
    #expect(!line.geometryContains(localPoint: Vector3(1, 0, 0)))
    #expect(!floor(boundary: []).geometryContains(localPoint: .zero))
    #expect(floor(boundary: nil).geometryContains(localPoint: Vector3(1, 0, 0.5)))
  }

  @Test("a feature point is found within the pixel radius, at its projection onto the ray")
  func featurePoint() throws {
    // Height 2: (0.1, 0, 0) projects to u = 50 + 100·0.1/2 = 55 (5 px away); (0.3, 0, 0) to 65.
    let cloud = [Vector3(0.3, 0, 0), Vector3(0.1, 0, 0), Vector3(0, 3, 0)]
    let camera = downCamera(height: 2)
    let near = HitTestScene(pointCloud: cloud, featurePointRadiusPixels: 8)
    let hit = try #require(near.hitTest(u: 50, v: 50, types: [.featurePoint], camera: camera).first)
    #expect(hit.type == .featurePoint)
    #expect(hit.worldPosition.isApproximatelyEqual(to: Vector3(0, 0, 0), absoluteTolerance: 1e-12))
    #expect(hit.distance.isApproximatelyEqual(to: 2, absoluteTolerance: 1e-12))
    let tight = HitTestScene(pointCloud: cloud, featurePointRadiusPixels: 4.9)
    #expect(tight.hitTest(u: 50, v: 50, types: [.featurePoint], camera: camera).isEmpty)
    // Nearest projection wins: at u = 62 the point at 65 (3 px) beats the one at 55 (7 px).
    let other = try #require(
      near.hitTest(u: 62, v: 50, types: [.featurePoint], camera: camera).first)
    // Ray through u = 62: direction ∝ (0.12, −1, 0); (0.3, 0, 0) projects to t·(0.12, −1, 0)/|…|.
    let direction = Vector3(0.12, -1, 0) / (1 + 0.0144).squareRoot()
    let t = (Vector3(0.3, 0, 0) - Vector3(0, 2, 0)).dot(direction)
    #expect(other.distance.isApproximatelyEqual(to: t, absoluteTolerance: 1e-12))
    #expect(
      other.worldPosition.isApproximatelyEqual(
        to: Vector3(0, 2, 0) + direction * t, absoluteTolerance: 1e-12))
  }
}
