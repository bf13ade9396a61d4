import ARMath
import ARScene

@testable import ARRender

/// SplitMix64: a small seeded generator so random scenes are the same on every run.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// A camera at the world origin looking down −Z.
func originCamera(
  width: Int, height: Int, focal: Double, cx: Double? = nil, cy: Double? = nil, near: Double = 0.001
) -> Camera {
  Camera(
    intrinsics: CameraIntrinsics(
      fx: focal, fy: focal, cx: cx ?? Double(width - 1) / 2, cy: cy ?? Double(height - 1) / 2,
      width: width, height: height),
    worldFromCamera: .identity, near: near)
}

/// Unlit white, so covered pixels read 255 on a black background.
let unlitWhite = Material(diffuse: .white, lightingModel: .constant)

/// Renders with a black background and returns which pixels are not black (row-major).
func coverage(_ root: Node, camera: Camera, supersampling: Int = 1) -> [Bool] {
  let renderer = Renderer(
    options: RenderOptions(threads: 1, supersampling: supersampling, background: .solid(.black)))
  let image = renderer.render(RenderList(root: root), camera: camera).image
  return stride(from: 0, to: image.pixels.count, by: 4).map { image.pixels[$0] != 0 }
}

/// The camera-space direction through pixel (u, v) (−z component 1).
func pixelDirection(_ camera: Camera, u: Double, v: Double) -> Vector3 {
  let k = camera.intrinsics
  return Vector3((u - k.cx) / k.fx, -(v - k.cy) / k.fy, -1)
}

/// Whether `predicate` gives the same answer at (u, v) and at points 1e-6 px around it; used to
/// skip pixel centres on a boundary, which may go either way.
func isUnambiguous(u: Double, v: Double, _ predicate: (Double, Double) -> Bool) -> Bool {
  let centre = predicate(u, v)
  let e = 1e-6
  return predicate(u + e, v) == centre && predicate(u - e, v) == centre
    && predicate(u, v + e) == centre && predicate(u, v - e) == centre
}
