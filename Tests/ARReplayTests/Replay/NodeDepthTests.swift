import ARSimCLI
import ARTestSupport
import Foundation
import Testing

/// `nodes` may nest 32 levels (SceneFile.md); a chain of exactly 32 was refused, as the
/// leaf's absent children counted as a 33rd level (a newcomer's finding).
@Suite struct NodeDepthTests {
  /// A chain of `levels` nodes, each the only child of the one before; the leaf has a sphere.
  static func chain(_ levels: Int, leafChildren: String = "") -> String {
    var node = #"{"name": "leaf", "geometry": {"sphere": {"radius": 0.1}}"# + leafChildren + "}"
    for level in stride(from: levels - 1, through: 1, by: -1) {
      node = #"{"name": "n\#(level)", "children": ["# + node + "]}"
    }
    return node
  }

  func render(levels: Int, leafChildren: String = "") throws -> (Int32, String) {
    let fixture = try PlaneLifecycleTests.fixture(
      scene: PlaneLifecycleTests.scene(
        planes: "", extra: #", "nodes": ["# + Self.chain(levels, leafChildren: leafChildren) + "]"))
    defer { fixture.remove() }
    return PlaneLifecycleTests().render(fixture)
  }

  @Test("32 levels render (with or without an empty children array on the leaf); 33 are refused")
  func limit() throws {
    for leafChildren in ["", #", "children": []"#] {
      let (code, message) = try render(levels: 32, leafChildren: leafChildren)
      #expect(code == 0, "\(message)")
    }
    let (code, message) = try render(levels: 33)
    #expect(code == 65, "\(message)")
    #expect(
      message.contains("nodes nested deeper than 32 levels (these are at level 33)"), "\(message)")
  }
}
