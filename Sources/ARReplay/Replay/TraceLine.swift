import ARMath
import ARRender
import ARScene

/// Builds one line of `trace.jsonl` (DESIGN §7, a contract read by outside checks):
/// `{"frame", "t", "worldFromCamera": [16, column-major, viewport camera], "intrinsics":
/// {fx, fy, cx, cy, width, height}, "nodes": [{"name", "kind", "worldTransform", "radius"
/// (spheres, world units), "rgba", "stroke" (stroke spheres)}], …session fields}`.
enum TraceLine {
  static func make(
    frame: Int, t: Double, camera: Camera, world: Node, sessionFields: [(String, JSONValue)]
  ) -> String {
    let k = camera.intrinsics
    var nodes: [JSONValue] = []
    collect(world, parentWorld: .identity, hidden: false, into: &nodes)
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
    return line.text + "\n"
  }

  /// Visible geometry nodes, parents before children (the renderer's order).
  private static func collect(
    _ node: Node, parentWorld: Matrix4, hidden: Bool, into out: inout [JSONValue]
  ) {
    if node.isHidden || hidden { return }
    let world = parentWorld * node.transform
    if let geometry = node.geometry {
      var fields: [(String, JSONValue)] = [("name", .string(node.name ?? ""))]
      let kind: String
      var radius: Double?
      switch geometry.shape {
      case .sphere(let s):
        kind = "sphere"
        radius = s.radius * world.upperLeft3x3.columns.0.length
      case .box: kind = "box"
      case .plane: kind = "plane"
      }
      fields.append(("kind", .string(kind)))
      fields.append(("worldTransform", .numbers(world.columnMajorElements)))
      if let radius { fields.append(("radius", .number(radius))) }
      fields.append(("rgba", .numbers(geometry.material.diffuse.components)))
      if let stroke = node.strokeIndex { fields.append(("stroke", .integer(stroke))) }
      out.append(.object(fields))
    }
    for child in node.childNodes { collect(child, parentWorld: world, hidden: false, into: &out) }
  }
}
