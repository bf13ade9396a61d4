import ARMath
import ARScene
import Testing

@Suite struct NodeTransformTests {
  @Test("a child's world position composes parent translation, rotation and scale")
  func parentChild() {
    let parent = Node()
    parent.position = Vector3(1, 2, 3)
    parent.orientation = Quaternion(axis: .unitY, angleRadians: .pi / 2)
    parent.scale = Vector3(2, 2, 2)
    let child = Node()
    child.position = Vector3(1, 0, 0)
    parent.addChildNode(child)
    // Rotating +X by 90° about +Y gives −Z; scaled by 2 → (0, 0, −2); plus (1, 2, 3).
    #expect(
      child.worldPosition.isApproximatelyEqual(to: Vector3(1, 2, 1), absoluteTolerance: 1e-12))
  }

  @Test("the pivot's inverse applies first: a pivot at (0, 1, 0) rotates about that point")
  func pivot() {
    let node = Node()
    node.pivot = Matrix4(translation: Vector3(0, 1, 0))
    node.orientation = Quaternion(axis: .unitZ, angleRadians: .pi / 2)
    // local = R · T(0,−1,0): the local origin maps to R·(0,−1,0) = (1, 0, 0).
    #expect(
      node.worldTransform.transformPoint(.zero).isApproximatelyEqual(
        to: Vector3(1, 0, 0), absoluteTolerance: 1e-12))
    // The pivot point itself (0, 1, 0) stays fixed.
    #expect(
      node.worldTransform.transformPoint(Vector3(0, 1, 0)).isApproximatelyEqual(
        to: Vector3(0, 0, 0), absoluteTolerance: 1e-12))
  }

  @Test("eulerAngles apply roll, then yaw, then pitch (R = Rx · Ry · Rz)")
  func eulerOrder() {
    let node = Node()
    node.eulerAngles = Vector3(.pi / 2, .pi / 2, 0)
    // Ry(90°) maps +X to −Z; Rx(90°) then maps −Z to +Y.
    #expect(
      node.transform.transformDirection(.unitX).isApproximatelyEqual(
        to: Vector3(0, 1, 0), absoluteTolerance: 1e-12))
    node.eulerAngles = Vector3(0, .pi / 2, .pi / 2)
    // Rz(90°) maps +X to +Y; Ry(90°) leaves +Y.
    #expect(
      node.transform.transformDirection(.unitX).isApproximatelyEqual(
        to: Vector3(0, 1, 0), absoluteTolerance: 1e-12))
  }

  @Test(
    "eulerAngles read back what was set",
    arguments: [
      Vector3(0.1, 0.2, 0.3), Vector3(-1.0, 0.5, 2.5), Vector3(0, 0, 0), Vector3(3.0, -1.2, -0.4),
    ])
  func eulerRoundTrip(angles: Vector3) {
    let node = Node()
    node.eulerAngles = angles
    #expect(node.eulerAngles.isApproximatelyEqual(to: angles, absoluteTolerance: 1e-9))
  }

  @Test("axis-angle rotation: π/2 about +X maps +Y to +Z, and reads back")
  func axisAngle() {
    let node = Node()
    node.rotation = AxisAngle(axis: Vector3(2, 0, 0), angleRadians: .pi / 2)
    #expect(
      node.transform.transformDirection(.unitY).isApproximatelyEqual(
        to: .unitZ, absoluteTolerance: 1e-12))
    #expect(node.rotation.axis.isApproximatelyEqual(to: .unitX, absoluteTolerance: 1e-12))
    #expect(node.rotation.angleRadians.isApproximatelyEqual(to: .pi / 2, absoluteTolerance: 1e-12))
  }

  @Test("convertPosition to and from another node round-trips")
  func convertRoundTrip() {
    let a = Node()
    a.position = Vector3(0.3, -1, 2)
    a.eulerAngles = Vector3(0.2, 1.1, -0.4)
    a.scale = Vector3(1.5, 0.5, 2)
    let b = Node()
    b.position = Vector3(-2, 0.5, 0)
    b.eulerAngles = Vector3(-0.7, 0.3, 0.9)
    let world = Node()
    world.addChildNode(a)
    world.addChildNode(b)
    let p = Vector3(0.25, -0.5, 1.75)
    let inB = a.convertPosition(p, to: b)
    #expect(a.convertPosition(inB, from: b).isApproximatelyEqual(to: p, absoluteTolerance: 1e-12))
    // Via world: b's world transform maps the converted point to a's world point.
    #expect(
      b.worldTransform.transformPoint(inB).isApproximatelyEqual(
        to: a.worldTransform.transformPoint(p), absoluteTolerance: 1e-12))
  }

  @Test("childNode(withName:) finds direct children, or the subtree when recursive")
  func childLookup() {
    let root = Node(name: "root")
    let a = Node(name: "a")
    let b = Node(name: "b")
    root.addChildNode(a)
    a.addChildNode(b)
    #expect(root.childNode(withName: "a", recursively: false) === a)
    #expect(root.childNode(withName: "b", recursively: false) == nil)
    #expect(root.childNode(withName: "b", recursively: true) === b)
    b.removeFromParentNode()
    #expect(root.childNode(withName: "b", recursively: true) == nil)
    #expect(b.parent == nil)
  }

  @Test("adding a node elsewhere moves it from its old parent")
  func reparent() {
    let p1 = Node()
    let p2 = Node()
    let c = Node()
    p1.addChildNode(c)
    p2.addChildNode(c)
    #expect(p1.childNodes.isEmpty)
    #expect(p2.childNodes.count == 1 && c.parent === p2)
  }
}
