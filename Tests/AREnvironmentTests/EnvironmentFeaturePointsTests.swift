import ARMath
import ARScene
import ARSession
import Foundation
import Testing

@testable import AREnvironment

/// Feature points sampled on environment surfaces, against counts and footprints worked out
/// by hand.
@Suite("Environment feature points")
struct EnvironmentFeaturePointsTests {
  func environment(_ spec: String) throws -> Environment {
    let decoded = try JSONDecoder().decode(EnvironmentSpec.self, from: Data(spec.utf8))
    return try Environment.load(decoded, section: SceneSection(sceneFilePath: "/tmp/scene.json"))
  }

  /// A 2 × 1 m wall in the XY plane at z = −1 facing +Z: two 1 m² triangles.
  static let wall =
    #"{"primitives": [{"plane": {"width": 2, "height": 1}, "position": [0, 0, -1]}]}"#

  @Test("40 points per square metre, on the surface, the same every time")
  func sampling() throws {
    let wall = try environment(Self.wall)
    let points = EnvironmentFeaturePoints(wall)
    // Each 1 m² triangle: ⌊40 + r⌋ = 40 for any r in [0, 1).
    #expect(points.points.count == 80)
    #expect(
      points.points.allSatisfy {
        abs($0.z + 1) < 1e-12 && abs($0.x) <= 1 + 1e-12 && abs($0.y) <= 0.5 + 1e-12
      })
    #expect(points.normals.allSatisfy { $0.distance(to: .unitZ) < 1e-12 })
    #expect(EnvironmentFeaturePoints(wall).points == points.points)
    // Spread over the wall, not bunched: both halves of each triangle's area get points.
    #expect(points.points.filter { $0.x < 0 }.count > 20)
    #expect(points.points.filter { $0.x > 0 }.count > 20)
  }

  @Test("In view: inside the image, in front, in range; none from behind the camera")
  func inView() throws {
    let wall = try environment(Self.wall)
    let points = EnvironmentFeaturePoints(wall)
    let intrinsics = CameraIntrinsics(
      fx: 500, fy: 500, cx: 319.5, cy: 239.5, width: 640, height: 480)
    // At the origin looking down −Z, 1 m from the wall: the image spans |x| < 0.64 m and
    // |y| < 0.48 m on it.
    let facing = Camera(
      intrinsics: intrinsics,
      worldFromCamera: RigidTransform(rotation: .identity, translation: .zero))
    let expected = points.points.filter { abs($0.x) < 0.64 && abs($0.y) < 0.48 }
    #expect(points.inView(of: facing) == expected)
    #expect(!expected.isEmpty && expected.count < 80)
    // Turned around: nothing in front.
    let away = Camera(
      intrinsics: intrinsics,
      worldFromCamera: RigidTransform(
        rotation: Quaternion(axis: .unitY, angleRadians: Double.pi), translation: .zero))
    #expect(points.inView(of: away).isEmpty)
    // 4 m away: beyond the 3 m range.
    let far = Camera(
      intrinsics: intrinsics,
      worldFromCamera: RigidTransform(rotation: .identity, translation: Vector3(0, 0, 3)))
    #expect(points.inView(of: far).isEmpty)
    // A featurePoint hit-test at a seen point's pixel lands on that point (the ray passes
    // through it).
    let target = try #require(expected.first)
    let (u, v, _) = try #require(facing.project(world: target))
    let hit = try #require(
      HitTestScene(pointCloud: points.inView(of: facing)).hitTest(
        u: u, v: v, types: [.featurePoint], camera: facing
      ).first)
    #expect(hit.worldPosition.distance(to: target) < 1e-9)
  }
}
