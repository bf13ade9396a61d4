import ARMath
import ARScene
import Testing

@Suite struct BillboardConstraintTests {
  @Test("free billboard takes the point of view's rotation")
  func allAxes() {
    let camera = Node()
    camera.position = Vector3(0, 1, 2)
    camera.eulerAngles = Vector3(-0.3, 0.7, 0.1)
    let node = Node()
    node.position = Vector3(0.5, 0, -1)
    node.constraints = [.billboard(BillboardConstraint())]
    let world = Node()
    world.addChildNode(camera)
    world.addChildNode(node)
    world.evaluateConstraints(pointOfView: camera)
    #expect(
      node.worldTransform.upperLeft3x3.columns.2.isApproximatelyEqual(
        to: camera.worldTransform.upperLeft3x3.columns.2, absoluteTolerance: 1e-12))
  }

  @Test("Y billboard yaws only: +Z points at the viewer's horizontal position")
  func yAxis() {
    let camera = Node()
    camera.position = Vector3(3, 5, 3)
    let node = Node()
    node.constraints = [.billboard(BillboardConstraint(freeAxes: .y))]
    let world = Node()
    world.addChildNode(camera)
    world.addChildNode(node)
    world.evaluateConstraints(pointOfView: camera)
    let z = node.worldTransform.upperLeft3x3.columns.2
    let s = 0.5.squareRoot()
    #expect(z.isApproximatelyEqual(to: Vector3(s, 0, s), absoluteTolerance: 1e-12))
    #expect(
      node.worldTransform.upperLeft3x3.columns.1.isApproximatelyEqual(
        to: .unitY, absoluteTolerance: 1e-12))
  }
}
