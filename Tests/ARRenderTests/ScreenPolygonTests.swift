import Testing

@testable import ARRasterizer
@testable import ARRender

@Suite("ScreenPolygon")
struct ScreenPolygonTests {
  @Test("two triangles sharing an edge cover each pixel of their union exactly once")
  func sharedEdgeCoveredOnce() throws {
    var random = SeededGenerator(seed: 3)
    var quads = 0
    while quads < 200 {
      // Vertices on a quarter-pixel grid, so many pixel centres lie exactly on edges.
      let p = (0..<4).map { _ in
        (
          u: Double(Int.random(in: 0...64, using: &random)) / 4,
          v: Double(Int.random(in: 0...64, using: &random)) / 4
        )
      }
      // Keep strictly convex quads (all turns the same sign); exact on this grid.
      let turns = (0..<4).map { i -> Double in
        let a = p[i]
        let b = p[(i + 1) % 4]
        let c = p[(i + 2) % 4]
        return (b.u - a.u) * (c.v - a.v) - (b.v - a.v) * (c.u - a.u)
      }
      guard turns.allSatisfy({ $0 > 0 }) || turns.allSatisfy({ $0 < 0 }) else { continue }
      quads += 1
      let first = try #require(ScreenPolygon(vertices: [p[0], p[1], p[2]]))
      let second = try #require(ScreenPolygon(vertices: [p[0], p[2], p[3]]))
      for v in 0...16 {
        for u in 0...16 {
          let x = Double(u)
          let y = Double(v)
          let count = (first.covers(u: x, v: y) ? 1 : 0) + (second.covers(u: x, v: y) ? 1 : 0)
          // Strictly inside the quad (exact on this grid) ⇒ exactly once.
          let sides = (0..<4).map { i -> Double in
            let a = p[i]
            let b = p[(i + 1) % 4]
            return (b.u - a.u) * (y - a.v) - (b.v - a.v) * (x - a.u)
          }
          let strictlyInside = sides.allSatisfy { $0 > 0 } || sides.allSatisfy { $0 < 0 }
          #expect(count <= 1)
          if strictlyInside { #expect(count == 1, "quad \(p) pixel (\(u), \(v))") }
        }
      }
    }
  }

  @Test("top-left rule: a pixel-aligned square takes its top and left edges only")
  func topLeftRule() throws {
    let square = try #require(
      ScreenPolygon(vertices: [(u: 1, v: 1), (u: 1, v: 3), (u: 3, v: 3), (u: 3, v: 1)]))
    #expect(square.covers(u: 1, v: 1))
    #expect(square.covers(u: 2, v: 1))
    #expect(square.covers(u: 1, v: 2))
    #expect(!square.covers(u: 3, v: 2))
    #expect(!square.covers(u: 2, v: 3))
    #expect(!square.covers(u: 3, v: 3))
  }

  @Test("degenerate outlines are rejected")
  func degenerate() {
    #expect(ScreenPolygon(vertices: [(u: 0, v: 0), (u: 1, v: 1), (u: 2, v: 2)]) == nil)
    #expect(ScreenPolygon(vertices: [(u: 0, v: 0), (u: .nan, v: 1), (u: 2, v: 0)]) == nil)
  }
}
