import ARMath
import ARRender
import ARScene
import ARSupport
import ARTestSupport
import Testing

@testable import ARReplay

/// `TraceLineBytes`, the trace line's byte buffer: its numbers and strings against Swift's own
/// `description` and `JSONWriter`, and whole lines of large, repetitive graphs against the
/// `JSONValue` tree they must equal byte for byte (DESIGN §7).
@Suite struct TraceLineBytesTests {
  /// `value` as `TraceLineBytes.number(_:)` prints it.
  static func numberText(_ value: Double) -> String {
    var out = TraceLineBytes(capacity: 0)
    defer { out.deallocate() }
    out.number(value)
    return out.text
  }

  /// The text the trace line has always had for `value`: `"\(value)"`, `0.0` for both zeros,
  /// `null` when not finite (`JSONValue.number`).
  static func expectedText(_ value: Double) -> String {
    if value == 0 { return "0.0" }
    if !value.isFinite { return "null" }
    return "\(value)"
  }

  @Test("hard cases, zeros, non-finite values and whole numbers around 2^53 print as before")
  func hardNumbers() {
    var values: [Double] = [
      0, -0.0, .infinity, -.infinity, .nan, -.nan, .signalingNaN, 1, -1, 0.5, -2.5, 40,
      1e15, 1e16, 1e17, 1e21, 1e22, 1e23, 9_007_199_254_740_991, 9_007_199_254_740_992,
      9_007_199_254_740_994, 4_503_599_627_370_496.5, 4_503_599_627_370_497,
      Double(Int64.max), Double(Int64.min), 18_446_744_073_709_551_616,
      Double(bitPattern: 1), -Double(bitPattern: 1), Double(bitPattern: 0x000F_FFFF_FFFF_FFFF),
      .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .pi,
      .ulpOfOne, 2.220446049250313e-16, 1e-5, 1e-4, 0.001, 0.1, 0.2, 0.1 + 0.2, 1 / 3.0,
      -2.2250738585072014e-308, 0.018749999999999996, 1066.6666666666665, 639.5,
    ]
    // Every power of two and its neighbours, both signs: the plain/exponent switch, the
    // whole-number path's edge (2^53) and the subnormal range.
    for exponent in -1074...1023 {
      let p = Double(sign: .plus, exponent: exponent, significand: 1)
      values += [p, p.nextUp, p.nextDown, -p, -p.nextUp]
    }
    for power in -30...30 {
      let p = Double("1e\(power)")!
      values += [p, p.nextUp, p.nextDown, -p]
    }
    var mismatches: [UInt64] = []
    for value in values where Self.numberText(value) != Self.expectedText(value) {
      mismatches.append(value.bitPattern)
    }
    #expect(mismatches.isEmpty, "bit patterns: \(mismatches.prefix(10))")
  }

  @Test("two million random bit patterns and one million random whole numbers print as before")
  func randomNumbers() {
    var random = SplitMix64(seed: 0x5EED_7ACE)
    var out = TraceLineBytes(capacity: 0)
    defer { out.deallocate() }
    var mismatches: [UInt64] = []
    func check(_ value: Double) {
      out.removeAll()
      out.number(value)
      let text = out.text
      if text != Self.expectedText(value) { mismatches.append(value.bitPattern) }
    }
    for _ in 0..<2_000_000 { check(Double(bitPattern: random.next())) }
    for _ in 0..<1_000_000 {
      let bits = random.next()
      // Whole numbers of every size up to 2^63, both signs, and halves near them.
      let magnitude = Double(bits >> (bits & 63))
      let value = bits & (1 << 62) == 0 ? magnitude : -magnitude
      check(bits & (1 << 61) == 0 ? value : value + 0.5)
    }
    #expect(mismatches.isEmpty, "bit patterns: \(mismatches.prefix(10))")
  }

  @Test("strings are escaped as JSONWriter escapes them")
  func strings() {
    let strings = [
      "", "stroke-0", "plané", "a\"b\\c", "tab\tnew\nline\rcr", "\u{0}\u{1}\u{1f}\u{7f}",
      "emoji 🧭 and ümlauts", String(repeating: "\\\"", count: 300),
    ]
    for value in strings {
      var out = TraceLineBytes(capacity: 0)
      defer { out.deallocate() }
      out.string(value)
      var expected = JSONWriter()
      expected.string(value)
      #expect(out.text == expected.text, "\(value)")
    }
  }

  @Test("integers print as String(value), Int.min and Int.max included")
  func integers() {
    var random = SplitMix64(seed: 7)
    var values = [0, 1, -1, 9, 10, -10, 99, 100, Int.max, Int.min, Int.max - 1, Int.min + 1]
    for _ in 0..<10_000 {
      let bits = random.next()
      values.append(Int(truncatingIfNeeded: bits >> (bits & 63)))
    }
    for value in values {
      var out = TraceLineBytes(capacity: 0)
      defer { out.deallocate() }
      out.integer(value)
      #expect(out.text == String(value))
    }
  }

  /// A component writing integer and string fields, escapes included.
  struct Tagged: NodeComponent {
    var number: Int
    var label: String
    func writeTraceFields(to fields: inout some NodeFieldWriter) {
      fields.integer("number", number)
      fields.string("label \"\(number)\"", label)
    }
  }

  /// A graph of `count` geometry nodes in runs that share rotation, scale, radius and colour,
  /// broken at random; some values zero, negative zero, NaN, infinite, subnormal or whole.
  static func repetitiveWorld(count: Int, seed: UInt64) -> Node {
    var random = SplitMix64(seed: seed)
    func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
    let special: [Double] = [0, -0.0, .nan, .infinity, -.infinity, 5e-324, 1, -3, 1e16, 0.1]
    func value() -> Double {
      random.next() % 16 == 0 ? special[Int(random.next() % 10)] : unit() * 4 - 2
    }
    let root = Node(name: "root")
    var parent = Node(name: "stroke")
    root.addChildNode(parent)
    var material = Material(diffuse: Color(red: 0.1, green: 0.2, blue: 0.3, alpha: 1))
    var radius = 0.015
    for index in 0..<count {
      let change = random.next() % 8
      if change == 0 {
        parent = Node(name: "stroke \(index)")
        parent.orientation = Quaternion(axis: Vector3(unit(), 1, unit()), angleRadians: value())
        let s = 1 + unit()
        parent.scale = Vector3(s, s, s)
        root.addChildNode(parent)
      }
      if change == 1 {
        material = Material(diffuse: Color(red: value(), green: unit(), blue: 1, alpha: value()))
      }
      if change == 2 { radius = value() }
      let geometry: Geometry
      switch random.next() % 10 {
      case 0: geometry = .box(width: 1, height: 2, length: 3, material: material)
      case 1: geometry = .plane(width: 1, height: 2, material: material)
      default: geometry = .sphere(radius: radius, material: material)
      }
      let node = Node(name: index % 3 == 0 ? "" : "n\(index)\n", geometry: geometry)
      node.position = Vector3(value(), value(), unit())
      if index % 5 == 0 { node.strokeIndex = index }
      if index % 7 == 0 { node.setComponent(Tagged(number: -index, label: "é\u{2}")) }
      if index % 11 == 0 { node.anchorIdentifier = "anchor \(index)" }
      node.isHidden = index % 13 == 12
      parent.addChildNode(node)
    }
    return root
  }

  /// The line of `world` as a `JSONValue` tree printed by the old writer, with every
  /// component's fields and the anchor (`TraceLineTests.oldLine` writes only `stroke`).
  static func treeLine(frame: Int, t: Double, camera: Camera, world: Node) -> String {
    let k = camera.intrinsics
    var nodes: [JSONValue] = []
    var visited: [VisitedGeometryNode] = []
    _ = RenderList(root: world, visitedGeometry: &visited)
    for entry in visited {
      let node = entry.node
      guard let geometry = node.geometry else { continue }
      var fields: [(String, JSONValue)] = [("name", .string(node.name ?? ""))]
      var radius: Double?
      switch geometry.shape {
      case .sphere(let s):
        fields.append(("kind", "sphere"))
        radius = s.radius * entry.worldFromNode.upperLeft3x3.columns.0.length
      case .box: fields.append(("kind", "box"))
      case .plane: fields.append(("kind", "plane"))
      }
      fields.append(("worldTransform", .numbers(entry.worldFromNode.columnMajorElements)))
      if let radius { fields.append(("radius", .number(radius))) }
      fields.append(("rgba", .numbers(geometry.material.diffuse.components)))
      var collector = FieldCollector()
      for component in node.components { component.writeTraceFields(to: &collector) }
      fields += collector.fields
      if let anchor = node.anchorIdentifier { fields.append(("anchor", .string(anchor))) }
      nodes.append(.object(fields))
    }
    let line = JSONValue.object([
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
    ])
    return ReferenceJSON.text(line) + "\n"
  }

  struct FieldCollector: NodeFieldWriter {
    var fields: [(String, JSONValue)] = []
    mutating func integer(_ key: String, _ value: Int) { fields.append((key, .integer(value))) }
    mutating func string(_ key: String, _ value: String) { fields.append((key, .string(value))) }
  }

  @Test("lines of large repetitive graphs equal the JSONValue tree, in a reused small buffer")
  func repetitiveGraphs() {
    var out = TraceLineBytes(capacity: 0)
    defer { out.deallocate() }
    for seed: UInt64 in [1, 2, 3] {
      let world = Self.repetitiveWorld(count: 3000, seed: seed)
      var visited: [VisitedGeometryNode] = []
      _ = RenderList(root: world, visitedGeometry: &visited)
      TraceLine.write(
        frame: Int(seed), t: 0.1 * Double(seed), camera: TraceLineTests.camera,
        geometryNodes: visited, sessionFields: [], into: &out)
      let expected = Self.treeLine(
        frame: Int(seed), t: 0.1 * Double(seed), camera: TraceLineTests.camera, world: world)
      #expect(out.text == expected, "seed \(seed)")
    }
  }
}
