import ARMath
import ARScene
import ARSupport
import ARTestSupport
import Testing

@testable import ARReplay

@Suite struct TraceLineTests {
  /// The line as `TraceLine` built it before writing bytes directly (commit cebb495): a
  /// `JSONValue` tree printed by the old `String` writer. The bytes must not change (DESIGN §7).
  static func oldLine(
    frame: Int, t: Double, camera: Camera, world: Node, sessionFields: [(String, JSONValue)]
  ) -> String {
    let k = camera.intrinsics
    var nodes: [JSONValue] = []
    oldCollect(world, parentWorld: .identity, into: &nodes)
    let line = JSONValue.object(
      [
        ("frame", .integer(frame)), ("t", .number(t)),
        ("worldFromCamera", .numbers(camera.worldFromCamera.matrix.columnMajorElements)),
        (
          "intrinsics",
          .object([
            ("fx", .number(k.fx)), ("fy", .number(k.fy)), ("cx", .number(k.cx)),
            ("cy", .number(k.cy)), ("width", .integer(k.width)), ("height", .integer(k.height)),
          ])
        ),
        ("nodes", .array(nodes)),
      ] + sessionFields)
    return ReferenceJSON.text(line) + "\n"
  }

  static func oldCollect(_ node: Node, parentWorld: Matrix4, into out: inout [JSONValue]) {
    if node.isHidden { return }
    let world = parentWorld * node.transform
    if let geometry = node.geometry {
      var fields: [(String, JSONValue)] = [("name", .string(node.name ?? ""))]
      var radius: Double?
      switch geometry.shape {
      case .sphere(let s):
        fields.append(("kind", "sphere"))
        radius = s.radius * world.upperLeft3x3.columns.0.length
      case .box: fields.append(("kind", "box"))
      case .plane: fields.append(("kind", "plane"))
      }
      fields.append(("worldTransform", .numbers(world.columnMajorElements)))
      if let radius { fields.append(("radius", .number(radius))) }
      fields.append(("rgba", .numbers(geometry.material.diffuse.components)))
      if let stroke = node.strokeIndex { fields.append(("stroke", .integer(stroke))) }
      out.append(.object(fields))
    }
    for child in node.childNodes { oldCollect(child, parentWorld: world, into: &out) }
  }

  /// A small graph with every node kind, a hidden subtree, a scaled and rotated parent, a
  /// nameless node, a name needing escapes, and stroke indices.
  static func world() -> Node {
    let root = Node(name: "root")
    let group = Node(name: "group \"g\"\n")
    group.position = Vector3(0.1, -0.2, 1e-17)
    group.orientation = Quaternion(axis: Vector3(0, 1, 0), angleRadians: 0.3)
    group.scale = Vector3(2, 2, 2)
    root.addChildNode(group)
    let material = Material(diffuse: Color(red: 0.1, green: 0, blue: 1, alpha: 0.5))
    let sphere = Node(name: "stroke-0", geometry: .sphere(radius: 0.005, material: material))
    sphere.strokeIndex = 0
    sphere.position = Vector3(-0.0, 1e16, 2.220446049250313e-16)
    group.addChildNode(sphere)
    let box = Node(geometry: .box(width: 1, height: 2, length: 3))
    box.strokeIndex = -7
    group.addChildNode(box)
    let hidden = Node(name: "hidden", geometry: .plane(width: 1, height: 1))
    hidden.isHidden = true
    hidden.addChildNode(Node(name: "under hidden", geometry: .sphere(radius: 1)))
    root.addChildNode(hidden)
    let plane = Node(name: "plané", geometry: .plane(width: 0.5, height: 0.25))
    plane.position = Vector3(3, 4, 5)
    root.addChildNode(plane)
    return root
  }

  static let camera = Camera(
    intrinsics: CameraIntrinsics(
      fx: 1000.5, fy: 1000, cx: 959.5, cy: 719.5, width: 1920, height: 1440),
    worldFromCamera: RigidTransform(
      rotation: Quaternion(axis: Vector3(1, 0, 0), angleRadians: -0.1),
      translation: Vector3(0, 1.5, 0.1)))

  @Test("the line has the bytes of the old JSONValue tree, session fields included")
  func sameBytesAsJSONValueTree() {
    let fields: [(String, JSONValue)] = [
      ("measure", .object([("start", .numbers([0, -0.0, 1e-300])), ("current", .null)])),
      ("screens", .array(["a\u{1}", 3, true])),
    ]
    let line = TraceLine.make(
      frame: 42, t: 1.4000000000000001, camera: Self.camera, world: Self.world(),
      sessionFields: fields)
    let expected = Self.oldLine(
      frame: 42, t: 1.4000000000000001, camera: Self.camera, world: Self.world(),
      sessionFields: fields)
    #expect(line == expected)
    #expect(line.hasPrefix(#"{"frame":42,"t":1.4000000000000001,"worldFromCamera":["#))
    #expect(line.hasSuffix(#","current":null},"screens":["a\u0001",3,true]}"# + "\n"))
  }

  @Test("a world with no visible geometry gives an empty node list")
  func emptyNodes() {
    let root = Node()
    let hidden = Node(name: "h", geometry: .sphere(radius: 1))
    hidden.isHidden = true
    root.addChildNode(hidden)
    let line = TraceLine.make(frame: 0, t: 0, camera: Self.camera, world: root, sessionFields: [])
    #expect(line.hasSuffix(#""width":1920,"height":1440},"nodes":[]}"# + "\n"))
    #expect(
      line
        == Self.oldLine(frame: 0, t: 0, camera: Self.camera, world: root, sessionFields: []))
  }
}
