import ARMath
import ARScene
import Testing

@testable import ARRasterizer
@testable import ARRender

/// The sphere fast path shades in Float (`ShadingLights.shadeSphere`); the general path
/// (`PreparedFrame.shade`) in Double with the node-local normal. They must agree to one 8-bit
/// level everywhere, and almost always exactly.
@Suite("Sphere shading precision")
struct SphereShadingPrecisionTests {
  @Test("Float blinn sphere shading matches the Double path within one level")
  func floatMatchesDouble() throws {
    let camera = originCamera(width: 160, height: 120, focal: 140)
    let root = Node()
    let light = Node()
    light.light = Light(kind: .directional)
    light.orientation = Quaternion(axis: Vector3(1, 0.3, 0), angleRadians: 1.1)
    root.addChildNode(light)
    let ambient = Node()
    ambient.light = Light(kind: .ambient, color: Color(red: 0.25, green: 0.2, blue: 0.15))
    root.addChildNode(ambient)
    let material = Material(
      diffuse: Color(red: 0.9, green: 0.45, blue: 0.2),
      specular: Color(red: 0.35, green: 0.35, blue: 0.35), shininess: 24, lightingModel: .blinn)
    let sphere = Node(geometry: .sphere(radius: 0.4, material: material))
    sphere.position = Vector3(0.1, -0.05, -1.5)
    root.addChildNode(sphere)
    let list = RenderList(root: root)
    let renderer = Renderer(options: RenderOptions(threads: 1, background: .solid(.black)))
    let image = renderer.render(list, camera: camera).image

    let frame = PreparedFrame(list, camera: camera)
    try #require(frame.spheres.count == 1 && frame.fastSphereMaterials[0] >= 0)
    func byte(_ x: Double) -> Int { Int((min(max(x, 0), 1) * 255 + 0.5).rounded(.down)) }
    var covered = 0
    var exact = 0
    for v in 0..<camera.intrinsics.height {
      let row = frame.spheres[0].row(v: Double(v))
      for u in 0..<camera.intrinsics.width {
        guard let t = row.depth(u: Double(u), near: frame.near, far: frame.far) else { continue }
        let expected = frame.shade(
          id: 0, sphereCount: 1, u: Double(u), v: Double(v), depth: t)
        let pixel = image[u, v]
        let deltas = [
          abs(Int(pixel.r) - byte(expected.x)), abs(Int(pixel.g) - byte(expected.y)),
          abs(Int(pixel.b) - byte(expected.z)),
        ]
        #expect(deltas.max()! <= 1, "pixel (\(u), \(v))")
        covered += 1
        if deltas.max() == 0 { exact += 1 }
      }
    }
    // The sphere covers about π · (140 · 0.4 / 1.5)² ≈ 4400 pixels.
    #expect(covered > 4000)
    #expect(Double(exact) >= 0.99 * Double(covered), "\(exact) of \(covered) exact")
  }
}
