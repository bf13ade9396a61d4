import ARMath
import ARScene
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@testable import ARRender

@Suite struct DepthOutputTests {
  @Test(
    "depth output of a tilted plane is the exact ray–plane depth, not the Float depth buffer's",
    arguments: [1, 2])
  func exactPlaneDepth(supersampling: Int) throws {
    // A plane through (0, 0, −2) tilted about Y by 0.6 rad: normal n = (sin 0.6, 0, cos 0.6) in
    // camera space (the camera is the world origin). The ray t·d meets it where
    // n·(t d − p) = 0, t = (n·p) / (n·d), computed here independently of the renderer.
    let camera = originCamera(width: 64, height: 48, focal: 40)
    let node = Node(geometry: .plane(width: 3, height: 3, material: unlitWhite))
    node.position = Vector3(0, 0, -2)
    node.eulerAngles = Vector3(0, 0.6, 0)
    let root = Node()
    root.addChildNode(node)
    let frame = Renderer(
      options: RenderOptions(
        threads: 1, supersampling: supersampling, background: .solid(.black), writesDepth: true)
    ).render(RenderList(root: root), camera: camera)
    let depth = try #require(frame.depth)
    let n = Vector3(sin(0.6), 0, cos(0.6))
    let offset = n.dot(Vector3(0, 0, -2))
    var covered = 0
    var exactToFloat = 0
    for v in 0..<48 {
      for u in 0..<64 where frame.image[u, v].r != 0 {
        let t = offset / n.dot(pixelDirection(camera, u: Double(u), v: Double(v)))
        let stored = frame.depthMetres[v * 64 + u]
        // The renderer's own operations differ from these in the last bits only.
        #expect(abs(stored - t) <= 4e-15 * t, "pixel (\(u), \(v))")
        #expect(depth.millimetres[v * 64 + u] == DepthImage.millimetres(fromMetres: stored))
        covered += 1
        if Double(Float(t)) != t { exactToFloat += 1 }
      }
    }
    // Most of the frame is the plane, and almost no exact depth is a Float: a Float-rounded
    // value (relative error up to 6·10⁻⁸) would fail the bound above.
    #expect(covered > 2000)
    #expect(exactToFloat > covered / 2)
  }
}
