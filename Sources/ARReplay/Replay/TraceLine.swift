import ARFormats
import ARMath
import ARRender
import ARScene
import ARSession
import ARSupport

/// Builds one line of `trace.jsonl` (DESIGN §7, a contract read by outside checks):
/// `{"frame", "t", "worldFromCamera": [16, column-major, viewport camera], "intrinsics":
/// {fx, fy, cx, cy, width, height}, "nodes": [{"name", "kind", "worldTransform", "radius"
/// (spheres, world units), "rgba", …its components' fields (`NodeComponent`), "anchor" (plane
/// visuals: the anchor's identifier)}], …session fields}`.
///
/// The line is written straight into one UTF-8 buffer from the node data, with the bytes
/// `JSONValue.text` gives for the same fields (no `JSONValue` tree, no `String` per number).
enum TraceLine {
  /// The line of the graph under `world` (walks it, as `RenderList(root:)` does).
  static func make(
    frame: Int, t: Double, camera: Camera, world: Node, sessionFields: [(String, JSONValue)]
  ) -> String {
    var nodes: [VisitedGeometryNode] = []
    _ = RenderList(root: world, visitedGeometry: &nodes)
    return make(
      frame: frame, t: t, camera: camera, geometryNodes: nodes, sessionFields: sessionFields)
  }

  /// The line from the geometry nodes and world transforms the frame's render list walk
  /// recorded (`RenderList.init(root:visitedGeometry:)`), so no transform is composed twice;
  /// `capacity`: bytes to reserve (the previous line's length spares B2's 3.8 MB regrowth).
  /// `trueCamera` (with a `tracking` section): written as `worldFromCameraTrue` after
  /// `worldFromCamera`, which is then the tracker's estimate.
  static func make(
    frame: Int, t: Double, camera: Camera, trueCamera: Camera? = nil,
    geometryNodes: [VisitedGeometryNode], sessionFields: [(String, JSONValue)],
    capacity: Int = 4096
  ) -> String {
    let k = camera.intrinsics
    var out = JSONWriter(capacity: capacity, remembersNumbers: true)
    out.raw("{\"frame\":")
    out.integer(frame)
    out.raw(",\"t\":")
    out.number(t)
    out.raw(",\"worldFromCamera\":")
    write(camera.worldFromCamera.matrix, to: &out)
    if let trueCamera {
      out.raw(",\"worldFromCameraTrue\":")
      write(trueCamera.worldFromCamera.matrix, to: &out)
    }
    out.raw(",\"intrinsics\":{\"fx\":")
    out.number(k.fx)
    out.raw(",\"fy\":")
    out.number(k.fy)
    out.raw(",\"cx\":")
    out.number(k.cx)
    out.raw(",\"cy\":")
    out.number(k.cy)
    out.raw(",\"width\":")
    out.integer(k.width)
    out.raw(",\"height\":")
    out.integer(k.height)
    out.raw("},\"nodes\":[")
    var first = true
    for visited in geometryNodes {
      write(visited.node, world: visited.worldFromNode, first: &first, to: &out)
    }
    out.byte(UInt8(ascii: "]"))
    for (key, value) in sessionFields {
      out.byte(UInt8(ascii: ","))
      out.string(key)
      out.byte(UInt8(ascii: ":"))
      value.write(to: &out)
    }
    out.raw("}\n")
    return out.text
  }

  /// One visible geometry node (the list keeps the renderer's order, parents before
  /// children) as `{"name","kind","worldTransform","radius"?,"rgba","stroke"?,"anchor"?}`.
  private static func write(
    _ node: Node, world: Matrix4, first: inout Bool, to out: inout JSONWriter
  ) {
    if let geometry = node.geometry {
      out.raw(first ? "{\"name\":" : ",{\"name\":")
      first = false
      out.string(node.name ?? "")
      var radius: Double?
      switch geometry.shape {
      case .sphere(let s):
        out.raw(",\"kind\":\"sphere\"")
        radius = s.radius * world.upperLeft3x3.columns.0.length
      case .box: out.raw(",\"kind\":\"box\"")
      case .plane: out.raw(",\"kind\":\"plane\"")
      }
      out.raw(",\"worldTransform\":")
      write(world, to: &out, slots: 0)
      if let radius {
        out.raw(",\"radius\":")
        out.number(radius)
      }
      let color = geometry.material.diffuse
      out.raw(",\"rgba\":[")
      out.numbers4(color.red, color.green, color.blue, color.alpha, slot: 4)
      out.byte(UInt8(ascii: "]"))
      if !node.components.isEmpty {
        var fields = TraceNodeFields()
        swap(&fields.out, &out)
        for component in node.components { component.writeTraceFields(to: &fields) }
        swap(&fields.out, &out)
      }
      if let anchor = node.anchorIdentifier {
        out.raw(",\"anchor\":")
        out.string(anchor)
      }
      out.byte(UInt8(ascii: "}"))
    }
  }

  /// `m`'s 16 elements, column-major, as a JSON array of numbers. With `slots`, the first three
  /// columns go through `JSONWriter.numbers4` slots `slots`…`slots + 2` (a stroke's spheres
  /// share their rotation and scale; the translation column is printed).
  private static func write(_ m: Matrix4, to out: inout JSONWriter, slots: Int? = nil) {
    out.byte(UInt8(ascii: "["))
    if let slots {
      let c = m.columns
      out.numbers4(c.0.x, c.0.y, c.0.z, c.0.w, slot: slots)
      out.byte(UInt8(ascii: ","))
      out.numbers4(c.1.x, c.1.y, c.1.z, c.1.w, slot: slots + 1)
      out.byte(UInt8(ascii: ","))
      out.numbers4(c.2.x, c.2.y, c.2.z, c.2.w, slot: slots + 2)
      // Each sphere has its own translation: no use remembering x, y, z.
      let t = c.3
      out.byte(UInt8(ascii: ","))
      out.unrememberedNumber(t.x)
      out.byte(UInt8(ascii: ","))
      out.unrememberedNumber(t.y)
      out.byte(UInt8(ascii: ","))
      out.unrememberedNumber(t.z)
      out.byte(UInt8(ascii: ","))
      out.number(t.w)
      out.byte(UInt8(ascii: "]"))
      return
    } else {
      write(m.columns.0, to: &out)
      out.byte(UInt8(ascii: ","))
      write(m.columns.1, to: &out)
      out.byte(UInt8(ascii: ","))
      write(m.columns.2, to: &out)
    }
    out.byte(UInt8(ascii: ","))
    write(m.columns.3, to: &out)
    out.byte(UInt8(ascii: "]"))
  }

  /// `x,y,z,w` (no brackets).
  private static func write(_ v: Vector4, to out: inout JSONWriter) {
    out.number(v.x)
    out.byte(UInt8(ascii: ","))
    out.number(v.y)
    out.byte(UInt8(ascii: ","))
    out.number(v.z)
    out.byte(UInt8(ascii: ","))
    out.number(v.w)
  }
}

/// A node component's trace fields written straight into the trace line (no per-node
/// allocation: the line's writer is swapped in and out).
struct TraceNodeFields: NodeFieldWriter {
  var out = JSONWriter(capacity: 0)

  mutating func integer(_ key: String, _ value: Int) {
    out.byte(UInt8(ascii: ","))
    out.string(key)
    out.byte(UInt8(ascii: ":"))
    out.integer(value)
  }

  mutating func string(_ key: String, _ value: String) {
    out.byte(UInt8(ascii: ","))
    out.string(key)
    out.byte(UInt8(ascii: ":"))
    out.string(value)
  }
}
