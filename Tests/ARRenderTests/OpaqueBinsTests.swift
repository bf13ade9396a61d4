import ARMath
import ARScene
import Testing

@testable import ARRasterizer
@testable import ARRender

@Suite("PreparedFrame.opaqueBins")
struct OpaqueBinsTests {
  @Test("each band lists the primitives whose screen bounds reach it, with a band of margin")
  func bins() throws {
    // 64 rows in bands of 16: bands 0…3. Focal 100, cy 31.5: a sphere of radius 0.05 at depth 2
    // spans about ±2.5 rows around v = 31.5 − 100 · y / 2.
    let camera = originCamera(width: 64, height: 64, focal: 100)
    let root = Node()
    let material = Material(diffuse: .white, lightingModel: .constant)
    for y in [0.5, -0.5] {  // v ≈ 6.5 (band 0) and v ≈ 56.5 (band 3)
      let node = Node(geometry: .sphere(radius: 0.05, material: material))
      node.position = Vector3(0, y, -2)
      root.addChildNode(node)
    }
    let frame = PreparedFrame(RenderList(root: root), camera: camera)
    try #require(frame.opaque.count == 2)
    let top = Int32(try #require(frame.opaque.firstIndex { frame.spheres[$0.index].minV < 20 }))
    let bottom = 1 - top
    let bins = frame.opaqueBins(bandRows: 16, bandCount: 4)
    #expect(bins == [[top], [top], [bottom], [bottom]])
  }
}
