import ARMath
import ARScene
import Foundation

/// Feature points on an environment's surfaces, as ARKit's `ARFrame.rawFeaturePoints`: the
/// points of the surfaces a frame sees (Documentation/Environments.md, "Feature points").
///
/// Sampled once: each triangle gets ⌊area · density + r⌋ points (r a uniform draw in [0, 1)
/// from SplitMix64 seeded by the triangle's index, so the expected count is exact) at uniform
/// barycentric positions from the same stream. A frame sees a point when it projects inside
/// the image, in front of the camera, at `PlaneDiscoverySettings`' distances (0.05–3 m) and
/// facing it within its `maximumViewAngle` — the rules plane discovery uses; occlusion is not
/// modelled. World frame, metres; deterministic (no threads, triangle order).
public struct EnvironmentFeaturePoints: Sendable {
  /// Points per square metre of surface.
  public static let density = 40.0
  /// At most this many points in all (a huge environment samples fewer per square metre).
  public static let maximumCount = 200_000

  /// The points (world, metres).
  public var points: [Vector3]
  /// The unit normal of each point's triangle (world).
  public var normals: [Vector3]
  /// The visibility rules.
  public var settings: PlaneDiscoverySettings

  /// Samples `environment`'s triangles.
  public init(
    _ environment: Environment, settings: PlaneDiscoverySettings = PlaneDiscoverySettings()
  ) {
    self.settings = settings
    let positions = environment.geometry.positions
    let triangleCount = positions.count / 3
    func vector(_ p: SIMD3<Double>) -> Vector3 { Vector3(p.x, p.y, p.z) }
    var total = 0.0
    for t in 0..<triangleCount {
      let p0 = vector(positions[3 * t])
      total += (vector(positions[3 * t + 1]) - p0).cross(vector(positions[3 * t + 2]) - p0).length
    }
    total /= 2
    let density = min(Self.density, total > 0 ? Double(Self.maximumCount) / total : Self.density)
    var points: [Vector3] = []
    var normals: [Vector3] = []
    for t in 0..<triangleCount {
      let p0 = vector(positions[3 * t])
      let e1 = vector(positions[3 * t + 1]) - p0
      let e2 = vector(positions[3 * t + 2]) - p0
      let cross = e1.cross(e2)
      guard let normal = cross.normalized else { continue }
      var random = SplitMix64(seed: UInt64(t))
      func unit() -> Double { Double(random.next() >> 11) * 0x1.0p-53 }
      let count = Int((cross.length / 2 * density + unit()).rounded(.down))
      for _ in 0..<count where points.count < Self.maximumCount {
        var a = unit()
        var b = unit()
        if a + b > 1 { (a, b) = (1 - a, 1 - b) }
        points.append(p0 + e1 * a + e2 * b)
        normals.append(normal)
      }
    }
    self.points = points
    self.normals = normals
  }

  /// The points `camera` sees (in sample order); both sides of a surface count as its
  /// front, as the renderer draws environment triangles from both sides.
  public func inView(of camera: Camera) -> [Vector3] {
    var seen: [Vector3] = []
    let eye = camera.worldFromCamera.translation
    let k = camera.intrinsics
    let cosView = cos(settings.maximumViewAngle)
    for (point, normal) in zip(points, normals) {
      let toEye = eye - point
      let distance = toEye.length
      guard distance >= settings.minimumDistance, distance <= settings.maximumDistance,
        abs(normal.dot(toEye)) >= cosView * distance,
        let (u, v, depth) = camera.project(world: point), depth > 0,
        u >= -0.5, v >= -0.5, u < Double(k.width) - 0.5, v < Double(k.height) - 0.5
      else { continue }
      seen.append(point)
    }
    return seen
  }
}
