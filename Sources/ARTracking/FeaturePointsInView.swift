import ARMath
import ARScene

/// The insufficient-features rule's input: how many feature points a camera sees: the scene's
/// `pointCloud` here, plus the environment's sampled points in view
/// (`EnvironmentFeaturePoints.inView(of:)` in AREnvironment), which the frame loop adds.
public enum FeaturePointsInView {
  /// The points of `points` (world metres) in front of `camera`, within its clip range, that
  /// project inside its image.
  public static func count(_ points: [Vector3], camera: Camera) -> Int {
    let k = camera.intrinsics
    var count = 0
    for point in points {
      guard let (u, v, depth) = camera.project(world: point), depth >= camera.near,
        depth <= camera.far, u >= -0.5, v >= -0.5, u < Double(k.width) - 0.5,
        v < Double(k.height) - 0.5
      else { continue }
      count += 1
    }
    return count
  }
}
