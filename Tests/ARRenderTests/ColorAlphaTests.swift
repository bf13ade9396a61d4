import ARMath
import ARScene
import Testing

@testable import ARRasterizer
@testable import ARRender

@Suite("Colour alpha")
struct ColorAlphaTests {
  /// A 64 × 48 camera at the origin looking down −Z.
  let camera = originCamera(width: 64, height: 48, focal: 60)

  /// An opaque unlit blue wall 3 m away with one unlit red shape 2 m away in front of it.
  func scene(_ shape: Shape, red: Color, nodeOpacity: Double = 1) -> Node {
    let root = Node()
    let wall = Node(
      geometry: .plane(
        width: 10, height: 10,
        material: Material(diffuse: Color(red: 0, green: 0, blue: 1), lightingModel: .constant)))
    wall.position = Vector3(0, 0, -3)
    let front = Node(
      geometry: Geometry(shape, material: Material(diffuse: red, lightingModel: .constant)))
    front.position = Vector3(0, 0, -2)
    front.opacity = nodeOpacity
    root.addChildNode(front)
    root.addChildNode(wall)
    return root
  }

  static let shapes: [Shape] = [
    .sphere(Sphere(radius: 0.5)), .box(Box(width: 1, height: 1, length: 1)),
    .plane(Plane(width: 1, height: 1)),
  ]

  @Test(
    "a colour's own alpha blends like node opacity, on spheres, boxes and planes", arguments: shapes
  )
  func alphaBlends(shape: Shape) {
    let renderer = Renderer(options: RenderOptions(threads: 1))
    let translucent = Color(red: 1, green: 0, blue: 0, alpha: 0.4)
    let image = renderer.render(RenderList(root: scene(shape, red: translucent)), camera: camera)
      .image
    // Centre pixel: 0.4 · red + 0.6 · blue = (102, 0, 153), ⌊255·x + ½⌋.
    let pixel = image[32, 24]
    #expect(pixel.r == 102 && pixel.g == 0 && pixel.b == 153, "\(pixel)")
    // The same bytes as an opaque colour on a node of opacity 0.4 (the existing path).
    let byOpacity = renderer.render(
      RenderList(root: scene(shape, red: Color(red: 1, green: 0, blue: 0), nodeOpacity: 0.4)),
      camera: camera
    ).image
    #expect(image.pixels == byOpacity.pixels)
  }

  @Test("colour alpha multiplies node opacity and transparency; the same bytes for 1 and 2 threads")
  func alphaMultipliesAndIsThreadIndependent() throws {
    let root = scene(
      .sphere(Sphere(radius: 0.5)), red: Color(red: 1, green: 0, blue: 0, alpha: 0.5),
      nodeOpacity: 0.8)
    let list = RenderList(root: root)
    let sphere = try #require(list.items.first)
    #expect(abs(sphere.opacity - 0.4) < 1e-12)  // 0.8 · 0.5
    let one = Renderer(options: RenderOptions(threads: 1)).render(list, camera: camera).image
    let two = Renderer(options: RenderOptions(threads: 2)).render(list, camera: camera).image
    #expect(one.pixels == two.pixels)
  }

  @Test("alpha 0 draws nothing")
  func alphaZero() {
    let root = scene(.sphere(Sphere(radius: 0.5)), red: Color(red: 1, green: 0, blue: 0, alpha: 0))
    #expect(RenderList(root: root).items.count == 1)  // only the wall
  }
}
