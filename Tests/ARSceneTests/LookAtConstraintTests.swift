import ARMath
import ARScene
import Testing

@Suite struct LookAtConstraintTests {
  struct Placement: CustomTestStringConvertible, Sendable {
    var node: Vector3
    var target: Vector3
    var testDescription: String { "node \(node) → target \(target)" }
  }

  static let placements: [Placement] = [
    Placement(node: Vector3(0, 0, -1), target: .zero),  // in front of a camera at the origin
    Placement(node: Vector3(2, 0, 0), target: .zero),
    Placement(node: Vector3(0, 1, -1), target: .zero),  // above: looks down 45°
    Placement(node: Vector3(-1, -2, 3), target: Vector3(0.5, 0.5, 0.5)),
    Placement(node: Vector3(0, 0, 5), target: Vector3(0, 0, -5)),
    Placement(node: Vector3(10, 3, -7), target: Vector3(-1, 0, 2)),
  ]

  @Test(
    "gimbal-locked look-at: −Z faces the target, horizon level, right-handed", arguments: placements
  )
  func basis(placement: Placement) throws {
    let world = Node()
    let target = Node()
    target.position = placement.target
    let node = Node()
    node.position = placement.node
    node.scale = Vector3(1.25, 1.25, 1.25)
    node.constraints = [.lookAt(LookAtConstraint(target: target, isGimbalLockEnabled: true))]
    world.addChildNode(target)
    world.addChildNode(node)
    world.evaluateConstraints(pointOfView: target)
    let r = node.orientation.rotationMatrix
    let toTarget = try #require((placement.target - placement.node).normalized)
    let minusZ = -r.columns.2
    #expect(minusZ.isApproximatelyEqual(to: toTarget, absoluteTolerance: 1e-12))
    // Horizon level: the node's x axis has no world-up component.
    #expect(abs(r.columns.0.y) < 1e-12)
    // Hand formula: x = normalize(up × z), y = z × x.
    let z = -toTarget
    let x = try #require(Vector3.unitY.cross(z).normalized)
    #expect(r.columns.0.isApproximatelyEqual(to: x, absoluteTolerance: 1e-12))
    #expect(r.columns.1.isApproximatelyEqual(to: z.cross(x), absoluteTolerance: 1e-12))
    #expect(r.determinant.isApproximatelyEqual(to: 1, absoluteTolerance: 1e-12))
    // Position and scale are kept.
    #expect(node.position == placement.node)
    #expect(node.scale == Vector3(1.25, 1.25, 1.25))
  }

  @Test("the remote-assist case: a root 1 m ahead turns local +X to the camera's left")
  func remoteAssistSigns() {
    let camera = Node()
    let root = Node()
    root.position = Vector3(0, 0, -1)
    root.constraints = [.lookAt(LookAtConstraint(target: camera, isGimbalLockEnabled: true))]
    let world = Node()
    world.addChildNode(camera)
    world.addChildNode(root)
    world.evaluateConstraints(pointOfView: camera)
    let r = root.orientation.rotationMatrix
    #expect(r.columns.0.isApproximatelyEqual(to: Vector3(-1, 0, 0), absoluteTolerance: 1e-12))
    #expect(r.columns.1.isApproximatelyEqual(to: Vector3(0, 1, 0), absoluteTolerance: 1e-12))
    #expect(r.columns.2.isApproximatelyEqual(to: Vector3(0, 0, -1), absoluteTolerance: 1e-12))
  }

  @Test("degenerate: target straight below keeps the previous heading (x axis)")
  func degenerate() {
    let target = Node()
    let node = Node()
    node.position = Vector3(0, 2, 0)
    node.orientation = Quaternion(axis: .unitY, angleRadians: 0.3)
    node.constraints = [.lookAt(LookAtConstraint(target: target, isGimbalLockEnabled: true))]
    let world = Node()
    world.addChildNode(target)
    world.addChildNode(node)
    world.evaluateConstraints(pointOfView: target)
    let r = node.orientation.rotationMatrix
    // −Z points straight down at the target.
    #expect((-r.columns.2).isApproximatelyEqual(to: Vector3(0, -1, 0), absoluteTolerance: 1e-12))
    // x is the previous world x (cos 0.3, 0, −sin 0.3), already orthogonal to z = +Y.
    #expect(
      r.columns.0.isApproximatelyEqual(
        to: Vector3(0.955336489125606, 0, -0.29552020666134), absoluteTolerance: 1e-12))
  }

  @Test("a node sitting on its target keeps its orientation")
  func coincident() {
    let target = Node()
    let node = Node()
    node.orientation = Quaternion(axis: .unitX, angleRadians: 0.5)
    node.constraints = [.lookAt(LookAtConstraint(target: target, isGimbalLockEnabled: true))]
    let world = Node()
    world.addChildNode(target)
    world.addChildNode(node)
    world.evaluateConstraints(pointOfView: target)
    #expect(
      node.orientation.isApproximatelyEqual(
        to: Quaternion(axis: .unitX, angleRadians: 0.5), absoluteTolerance: 1e-12))
  }

  @Test("a rotated parent: the child's world −Z still faces the target")
  func rotatedParent() throws {
    let world = Node()
    let parent = Node()
    parent.eulerAngles = Vector3(0.4, -0.8, 0.2)
    parent.position = Vector3(1, 1, 1)
    let node = Node()
    node.position = Vector3(0.5, 0, 0)
    node.constraints = [.lookAt(LookAtConstraint(target: world, isGimbalLockEnabled: true))]
    world.addChildNode(parent)
    parent.addChildNode(node)
    world.evaluateConstraints(pointOfView: world)
    let m = node.worldTransform
    let toTarget = try #require((Vector3.zero - m.translation).normalized)
    #expect(
      (-m.upperLeft3x3.columns.2).isApproximatelyEqual(to: toTarget, absoluteTolerance: 1e-12))
    #expect(abs(m.upperLeft3x3.columns.0.y) < 1e-12)
  }
}
