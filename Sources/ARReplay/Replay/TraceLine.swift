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
/// The line is written straight into one byte buffer (`TraceLineBytes`) from the node data,
/// with the bytes `JSONValue.text` gives for the same fields (no `JSONValue` tree, no `String`
/// per number). A node's rotation and scale columns, and its radius and colour, are printed
/// once and copied while the next nodes have the same bit patterns (the spheres of a stroke).
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
  /// recorded (`RenderList.init(root:visitedGeometry:)`), so no transform is composed twice.
  /// `trueCamera` (with a `tracking` section): written as `worldFromCameraTrue` after
  /// `worldFromCamera`, which is then the tracker's estimate.
  static func make(
    frame: Int, t: Double, camera: Camera, trueCamera: Camera? = nil,
    geometryNodes: [VisitedGeometryNode], sessionFields: [(String, JSONValue)]
  ) -> String {
    var out = TraceLineBytes()
    defer { out.deallocate() }
    write(
      frame: frame, t: t, camera: camera, trueCamera: trueCamera, geometryNodes: geometryNodes,
      sessionFields: sessionFields, into: &out)
    return out.text
  }

  /// Writes the line (with its newline) into `out`, emptied first; the frame loop keeps one
  /// buffer for every frame (B2's lines are 3.8 MB), so it is allocated once.
  static func write(
    frame: Int, t: Double, camera: Camera, trueCamera: Camera? = nil,
    geometryNodes: [VisitedGeometryNode], sessionFields: [(String, JSONValue)],
    into out: inout TraceLineBytes
  ) {
    out.removeAll()
    let k = camera.intrinsics
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
    var repeated = TraceNodeRepeats()
    defer { repeated.deallocate() }
    var first = true
    for visited in geometryNodes {
      write(
        visited.node, world: visited.worldFromNode, first: &first, repeated: &repeated, to: &out)
    }
    out.byte(UInt8(ascii: "]"))
    if !sessionFields.isEmpty {
      var fields = JSONWriter()
      for (key, value) in sessionFields {
        fields.byte(UInt8(ascii: ","))
        fields.string(key)
        fields.byte(UInt8(ascii: ":"))
        value.write(to: &fields)
      }
      out.append(fields)
    }
    out.raw("}\n")
  }

  /// One visible geometry node (the list keeps the renderer's order, parents before
  /// children) as `{"name","kind","worldTransform","radius"?,"rgba","stroke"?,"anchor"?}`.
  private static func write(
    _ node: Node, world: Matrix4, first: inout Bool, repeated: inout TraceNodeRepeats,
    to out: inout TraceLineBytes
  ) {
    guard let geometry = node.geometry else { return }
    if first {
      out.raw("{\"name\":")
      first = false
    } else {
      out.raw(",{\"name\":")
    }
    out.string(node.name ?? "")
    var radius: Double?
    switch geometry.shape {
    case .sphere(let s):
      out.raw(",\"kind\":\"sphere\",\"worldTransform\":[")
      radius = s.radius * world.upperLeft3x3.columns.0.length
    case .box: out.raw(",\"kind\":\"box\",\"worldTransform\":[")
    case .plane: out.raw(",\"kind\":\"plane\",\"worldTransform\":[")
    }
    let c = world.columns
    repeated.writeRotation(c.0, c.1, c.2, to: &out)
    // Each node has its own translation: printed every time.
    out.reserve(4 * TraceLineBytes.numberBytes + 4)
    out.putNumber(c.3.x)
    out.putByte(UInt8(ascii: ","))
    out.putNumber(c.3.y)
    out.putByte(UInt8(ascii: ","))
    out.putNumber(c.3.z)
    out.putByte(UInt8(ascii: ","))
    out.putNumber(c.3.w)
    out.putByte(UInt8(ascii: "]"))
    repeated.writeLook(radius: radius, color: geometry.material.diffuse, to: &out)
    let components = node.components
    if !components.isEmpty {
      var fields = TraceNodeFields(out: out)
      for component in components { component.writeTraceFields(to: &fields) }
      out = fields.out
    }
    if let anchor = node.anchorIdentifier {
      out.raw(",\"anchor\":")
      out.string(anchor)
    }
    out.byte(UInt8(ascii: "}"))
  }

  /// `m`'s 16 elements, column-major, as a JSON array of numbers.
  private static func write(_ m: Matrix4, to out: inout TraceLineBytes) {
    out.reserve(16 * (TraceLineBytes.numberBytes + 1) + 1)
    out.putByte(UInt8(ascii: "["))
    out.putNumbers(m.columns.0)
    out.putNumbers(m.columns.1)
    out.putNumbers(m.columns.2)
    out.putNumbers(m.columns.3)
    // The last comma becomes the closing bracket.
    out.replaceLast(with: UInt8(ascii: "]"))
  }
}

/// The text of the last node's rotation and scale columns, and of its radius and colour, with
/// the bit patterns they were printed from: the spheres of a stroke share both, so all but
/// the first copy the bytes (`memcmp`-cheap) instead of printing 17 numbers again.
struct TraceNodeRepeats {
  /// The three columns' bit patterns the rotation text is of (valid with `rotationCount > 0`).
  private var rotationBits = (SIMD4<UInt64>(), SIMD4<UInt64>(), SIMD4<UInt64>())
  private var rotationCount = 0
  /// Whether the look text has a radius, the radius's and the colour's bit patterns.
  private var lookBits = (hasRadius: false, radius: UInt64(0), color: SIMD4<UInt64>())
  private var lookCount = 0
  /// `rotationBytes` then `lookBytes` bytes.
  private let text: UnsafeMutablePointer<UInt8>
  private static let rotationBytes = 12 * (TraceLineBytes.numberBytes + 1)
  /// `,"radius":` + a number + `,"rgba":[` + four numbers with commas + `]`.
  private static let lookBytes = 11 + 9 + 5 * (TraceLineBytes.numberBytes + 1) + 1

  init() {
    text = .allocate(capacity: Self.rotationBytes + Self.lookBytes)
  }

  func deallocate() { text.deallocate() }

  /// Writes `c0, c1, c2`'s twelve numbers, each followed by a comma.
  mutating func writeRotation(
    _ c0: Vector4, _ c1: Vector4, _ c2: Vector4, to out: inout TraceLineBytes
  ) {
    let bits = (Self.bits(c0), Self.bits(c1), Self.bits(c2))
    out.reserve(Self.rotationBytes)
    if rotationCount > 0, bits.0 == rotationBits.0, bits.1 == rotationBits.1,
      bits.2 == rotationBits.2
    {
      out.putBytes(text, count: rotationCount)
      return
    }
    let start = out.count
    out.putNumbers(c0)
    out.putNumbers(c1)
    out.putNumbers(c2)
    rotationCount = out.count - start
    text.update(from: out.base + start, count: rotationCount)
    rotationBits = bits
  }

  /// Writes `,"radius":r` (when given) and `,"rgba":[r,g,b,a]`.
  mutating func writeLook(radius: Double?, color: Color, to out: inout TraceLineBytes) {
    let colorBits = SIMD4(
      color.red.bitPattern, color.green.bitPattern, color.blue.bitPattern,
      color.alpha.bitPattern)
    let radiusBits = radius?.bitPattern ?? 0
    out.reserve(Self.lookBytes)
    if lookCount > 0, lookBits.hasRadius == (radius != nil), lookBits.radius == radiusBits,
      lookBits.color == colorBits
    {
      out.putBytes(text + Self.rotationBytes, count: lookCount)
      return
    }
    let start = out.count
    if let radius {
      out.putRaw(",\"radius\":")
      out.putNumber(radius)
    }
    out.putRaw(",\"rgba\":[")
    out.putNumber(color.red)
    out.putByte(UInt8(ascii: ","))
    out.putNumber(color.green)
    out.putByte(UInt8(ascii: ","))
    out.putNumber(color.blue)
    out.putByte(UInt8(ascii: ","))
    out.putNumber(color.alpha)
    out.putByte(UInt8(ascii: "]"))
    lookCount = out.count - start
    (text + Self.rotationBytes).update(from: out.base + start, count: lookCount)
    lookBits = (radius != nil, radiusBits, colorBits)
  }

  private static func bits(_ v: Vector4) -> SIMD4<UInt64> {
    SIMD4(v.x.bitPattern, v.y.bitPattern, v.z.bitPattern, v.w.bitPattern)
  }
}

/// A node component's trace fields written straight into the trace line (no per-node
/// allocation: the line's buffer is handed in and taken back).
struct TraceNodeFields: NodeFieldWriter {
  var out: TraceLineBytes

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
