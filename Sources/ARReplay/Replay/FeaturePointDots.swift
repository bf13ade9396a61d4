import ARMath
import ARRenderCore
import ARScene

/// `--debug feature-points`: each feature point drawn as a 3 × 3 pixel yellow dot where the
/// apps' camera projects it, as ARSCNView's `ARSCNDebugOptions.showFeaturePoints` draws
/// them; drawn over the finished frame (no depth test), in point order.
enum FeaturePointDots {
  /// sRGB yellow (255, 220, 0).
  static let color: (UInt8, UInt8, UInt8) = (255, 220, 0)

  /// Draws `points` (world metres) seen from `camera` on `image` (its size is the camera's).
  static func draw(_ points: [Vector3], camera: Camera, on image: inout Image) {
    let width = image.width
    let height = image.height
    for point in points {
      guard let (u, v, depth) = camera.project(world: point), depth > 0, u.isFinite, v.isFinite,
        u >= -0.5, v >= -0.5, u < Double(width) - 0.5, v < Double(height) - 0.5
      else { continue }
      let x = Int(u.rounded())
      let y = Int(v.rounded())
      for dy in -1...1 {
        for dx in -1...1 {
          let px = x + dx
          let py = y + dy
          guard px >= 0, py >= 0, px < width, py < height else { continue }
          let i = (py * width + px) * 4
          image.pixels[i] = color.0
          image.pixels[i + 1] = color.1
          image.pixels[i + 2] = color.2
        }
      }
    }
  }
}
