import ARMath
import ARScene
import Testing

@testable import ARRasterizer
@testable import ARRender

@Suite("RenderList")
struct RenderListTests {
  @Test("hidden subtrees are skipped and opacities multiply down the tree")
  func visibilityAndOpacity() throws {
    let root = Node()
    root.opacity = 0.5
    let parent = Node()
    parent.opacity = 0.8
    parent.position = Vector3(1, 0, 0)
    let child = Node(geometry: .sphere(radius: 1, material: Material(transparency: 0.5)))
    child.position = Vector3(0, 2, 0)
    let hidden = Node(geometry: .sphere(radius: 1))
    hidden.isHidden = true
    hidden.addChildNode(Node(geometry: .sphere(radius: 1)))
    root.addChildNode(parent)
    parent.addChildNode(child)
    root.addChildNode(hidden)
    let list = RenderList(root: root)
    #expect(list.items.count == 1)
    let item = try #require(list.items.first)
    #expect(abs(item.opacity - 0.2) < 1e-12)  // 0.5 · 0.8 · 0.5
    #expect(item.worldFromNode.translation == Vector3(1, 2, 0))
  }

  @Test("no lights: one white light straight down plus ambient 0.3")
  func defaultLights() throws {
    let list = RenderList(root: Node(geometry: .sphere(radius: 1)))
    #expect(list.directionalLights.count == 1)
    let light = try #require(list.directionalLights.first)
    #expect(light.direction == Vector3(0, -1, 0))
    #expect(list.ambient == SIMD3(0.3, 0.3, 0.3))
  }

  @Test("a directional light shines along its node's world −Z; ambient lights add up")
  func lightDirections() throws {
    let root = Node()
    let directional = Node()
    directional.light = Light(kind: .directional, intensity: 2)
    directional.orientation = Quaternion(axis: .unitY, angleRadians: Double.pi / 2)
    let ambient = Node()
    ambient.light = Light(kind: .ambient, color: Color(red: 0.1, green: 0.2, blue: 0.3))
    root.addChildNode(directional)
    root.addChildNode(ambient)
    let list = RenderList(root: root)
    let light = try #require(list.directionalLights.first)
    // Ry(90°) · (0, 0, −1) = (−1, 0, 0).
    #expect(abs(light.direction.x + 1) < 1e-12 && abs(light.direction.z) < 1e-12)
    #expect(light.color == SIMD3(2, 2, 2))
    #expect(list.ambient == SIMD3(0.1, 0.2, 0.3))
  }
}
