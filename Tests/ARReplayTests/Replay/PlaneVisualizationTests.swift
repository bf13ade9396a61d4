import ARMath
import ARScene
import Testing

@testable import ARReplay
@testable import ARSession

private func context(tick k: Int, root: Node, planes: [PlaneAnchor]) -> TickContext {
  let t = Double(k) / 60
  return TickContext(
    tick: k, t: t, microseconds: Int64((t * 1e6).rounded()),
    camera: Camera(intrinsics: .defaultCapture, worldFromCamera: .identity), pointOfView: Node(),
    root: root, planes: planes)
}

private let table = PlaneAnchor(
  identifier: "table",
  worldFromAnchor: RigidTransform(
    rotation: Quaternion(axis: .unitY, angleRadians: .pi / 2), translation: Vector3(1, 0.7, 0)),
  center: Vector3(0.2, 0, 0), extent: Vector3(0.8, 0, 0.5))

@Suite struct PlaneVisualizationTests {
  @Test("the sample app's red slab sits at the anchor origin and fades out over one second")
  func sampleAppFade() throws {
    let root = Node()
    let visualization = PlaneVisualization(style: .sampleApp)
    var opacities: [Int: Double] = [:]
    for k in 0...90 {
      // The anchor appears at tick 6 (τ = 0.1 s).
      var c = context(tick: k, root: root, planes: k >= 6 ? [table] : [])
      visualization.update(&c)
      if let visual = visualization.anchorNode(for: "table")?.childNodes.first {
        opacities[k] = visual.opacity
      }
    }
    #expect(opacities[5] == nil)
    #expect(opacities[6] == 1)
    #expect(try #require(opacities[36]).isApproximatelyEqual(to: 0.5, absoluteTolerance: 1e-12))
    #expect(opacities[66] == 0)
    #expect(opacities[90] == 0)
    let visual = try #require(visualization.anchorNode(for: "table")?.childNodes.first)
    #expect(
      visual.geometry
        == .box(
          width: 0.8, height: 0, length: 0.5,
          material: Material(diffuse: Color(red: 1, green: 0, blue: 0))))
    // Not offset by `center`: the slab is centred on the anchor origin.
    #expect(
      visual.worldPosition.isApproximatelyEqual(to: Vector3(1, 0.7, 0), absoluteTolerance: 1e-12))
  }

  @Test("the translucent plane covers the extent rectangle in the anchor's XZ plane")
  func translucentPlacement() throws {
    let root = Node()
    let visualization = PlaneVisualization()
    var c = context(tick: 0, root: root, planes: [table])
    visualization.update(&c)
    let visual = try #require(visualization.anchorNode(for: "table")?.childNodes.first)
    // Anchor yaw +90° maps local +X to world −Z: the centre (0.2, 0, 0) is at (1, 0.7, −0.2).
    #expect(
      visual.worldPosition.isApproximatelyEqual(to: Vector3(1, 0.7, -0.2), absoluteTolerance: 1e-12)
    )
    // The plane's normal (local +Z) points up; its width (local X) runs along the anchor's X.
    let world = visual.worldTransform
    #expect(
      world.transformDirection(.unitZ).isApproximatelyEqual(to: .unitY, absoluteTolerance: 1e-12))
    #expect(
      world.transformDirection(.unitX).isApproximatelyEqual(
        to: Vector3(0, 0, -1), absoluteTolerance: 1e-12))
    guard case .plane(let plane) = visual.geometry?.shape else {
      Issue.record("expected a plane geometry")
      return
    }
    #expect(plane == Plane(width: 0.8, height: 0.5))
  }

  @Test("an anchor that disappears loses its node")
  func removal() {
    let root = Node()
    let visualization = PlaneVisualization()
    var first = context(tick: 0, root: root, planes: [table])
    visualization.update(&first)
    #expect(root.childNodes.count == 1)
    var second = context(tick: 1, root: root, planes: [])
    visualization.update(&second)
    #expect(root.childNodes.isEmpty)
    #expect(visualization.anchorNode(for: "table") == nil)
  }
}
