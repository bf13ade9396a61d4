import ARMath
import ARScene
import Testing

@testable import ARRasterizer
@testable import ARRender

@Suite struct DrawOrderTests {
  /// A constant-lit node of `color`.
  static func node(_ geometry: Shape, _ color: Color, at position: Vector3) -> Node {
    let node = Node(
      geometry: Geometry(geometry, material: Material(diffuse: color, lightingModel: .constant)))
    node.position = position
    return node
  }

  @Test("equal depths go to the primitive listed first, although triangles are drawn first")
  func equalDepthTieBreak() {
    // Centre pixel of a 9×9 image: its ray is the optical axis. The sphere's front point and the
    // plane are both exactly at depth 2 there.
    let camera = originCamera(width: 9, height: 9, focal: 10)
    let red = Color(red: 1, green: 0, blue: 0)
    let blue = Color(red: 0, green: 0, blue: 1)
    let sphereFirst = Node()
    sphereFirst.addChildNode(Self.node(.sphere(Sphere(radius: 1)), red, at: Vector3(0, 0, -3)))
    sphereFirst.addChildNode(
      Self.node(.plane(Plane(width: 4, height: 4)), blue, at: Vector3(0, 0, -2)))
    let planeFirst = Node()
    planeFirst.addChildNode(
      Self.node(.plane(Plane(width: 4, height: 4)), blue, at: Vector3(0, 0, -2)))
    planeFirst.addChildNode(Self.node(.sphere(Sphere(radius: 1)), red, at: Vector3(0, 0, -3)))
    let renderer = Renderer(options: RenderOptions(threads: 1))
    let a = renderer.render(RenderList(root: sphereFirst), camera: camera).image
    let b = renderer.render(RenderList(root: planeFirst), camera: camera).image
    #expect(a[4, 4].r == 255 && a[4, 4].b == 0)
    #expect(b[4, 4].b == 255 && b[4, 4].r == 0)
    // Off the axis the plane is nearer than the sphere in both.
    #expect(a[0, 0].b == 255 && b[0, 0].b == 255)
  }
}
