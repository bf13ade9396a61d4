import ARMath
import ARScene
import Testing

@testable import ARRasterizer
@testable import ARRender

/// The rasterizer's `TriangleStorage`: a frame's triangle array is kept for the next frame,
/// emptied. The baseline build renders here, so its pool is the one `ARRasterizer` names.
@Suite struct TriangleStorageTests {
  let camera = originCamera(width: 32, height: 24, focal: 30)
  let renderer = Renderer(options: RenderOptions(threads: 1, instructionSet: .baseline))

  /// 100 red planes (200 triangles) filling the view, 2 m away and beyond.
  func planes() -> RenderList {
    let root = Node()
    for k in 0..<100 {
      let plane = Node(
        geometry: .plane(
          width: 10, height: 10,
          material: Material(diffuse: Color(red: 1, green: 0, blue: 0), lightingModel: .constant)))
      plane.position = Vector3(0, 0, -2 - Double(k) * 0.01)
      root.addChildNode(plane)
    }
    return RenderList(root: root)
  }

  @Test("a drawn frame's triangles come back as an empty array with their room")
  func keptArrayIsEmptied() throws {
    let red = renderer.render(planes(), camera: camera).image
    #expect(Array(red.pixels.prefix(4)) == [255, 0, 0, 255])
    // Kept triangles would pile up frame after frame (and show in no picture). Whichever
    // array comes (tests render at once, each giving its frame's back), it is empty.
    let taken = TriangleStorage.take()
    #expect(taken.isEmpty)
    TriangleStorage.give(taken)
    // The next frame draws only its own: nothing, so the 0.5 grey background everywhere.
    let empty = renderer.render(RenderList(root: Node()), camera: camera).image
    #expect(
      stride(from: 0, to: empty.pixels.count, by: 4).allSatisfy {
        empty.pixels[$0..<($0 + 4)].elementsEqual([128, 128, 128, 255])
      })
  }
}
