import ARMath
import ARScene

@testable import ARRasterizer
@testable import ARRender

/// The seeded generator of the random-scene tests.
typealias SeededGenerator = SplitMix64

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

/// The random sphere scenes' floor: a green 6 m × 6 m plane lying 0.8 m below the camera, its
/// centre 3 m ahead (−Z).
func randomSceneFloor() -> Node {
  let floor = Node(
    geometry: Geometry(
      .plane(Plane(width: 6, height: 6)),
      material: Material(diffuse: Color(red: 0.3, green: 0.6, blue: 0.4))))
  floor.position = Vector3(0, -0.8, -3)
  floor.eulerAngles = Vector3(-Double.pi / 2, 0, 0)
  return floor
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
