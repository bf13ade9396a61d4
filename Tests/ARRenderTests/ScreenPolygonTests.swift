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

  @Test("coveredColumns is exactly the columns covers admits, at 1, 2 and 3 samples per pixel")
  func coveredColumnsMatchCovers() throws {
    var random = SeededGenerator(seed: 31)
    let columns = 97
    for trial in 0..<300 {
      let scale = 1 + trial % 3
      // Vertices around and beyond the grid, some on the sample lattice.
      let p = (0..<3).map { _ in
        (
          u: Double(Int.random(in: -400...800, using: &random)) / 8,
          v: Double(Int.random(in: -200...400, using: &random)) / 8
        )
      }
      guard let polygon = ScreenPolygon(vertices: p) else { continue }
      let rayX = [Float](repeating: 0, count: columns * scale + 16)
      let rayY = [Double](repeating: 0, count: 64 * scale)
      rayX.withUnsafeBufferPointer { rayX in
        rayY.withUnsafeBufferPointer { rayY in
          let grid = SampleGrid(
            scale: scale, columns: columns * scale, firstRow: 0, rowCount: 64 * scale,
            rayX: rayX, rayY: rayY)
          for sy in 0..<(50 * scale) {
            let v = grid.v(sy)
            let covered = polygon.coveredColumns(v: v, columns: 0..<grid.columns, grid: grid)
            let expected = (0..<grid.columns).filter { polygon.covers(u: grid.u($0), v: v) }
            #expect(Array(covered) == expected, "trial \(trial) row \(sy)")
          }
        }
      }
    }
  }

  @Test("covers in lanes answers as covers sample by sample, on edges and vertices too")
  func laneCoversMatchCovers() throws {
    var random = SeededGenerator(seed: 47)
    var onEdge = 0
    for trial in 0..<400 {
      let scale = 1 + trial % 3
      // Small outlines on a quarter-pixel lattice (the environment's triangles are a few pixels
      // wide), so samples fall exactly on edges and vertices; every fourth one a quad.
      let count = trial % 4 == 0 ? 4 : 3
      let origin = (u: Double(Int.random(in: 0...40, using: &random)), v: 3.0)
      let p = (0..<count).map { _ in
        (
          u: origin.u + Double(Int.random(in: -24...24, using: &random)) / 4,
          v: origin.v + Double(Int.random(in: -12...12, using: &random)) / 4
        )
      }
      guard let polygon = ScreenPolygon(vertices: p) else { continue }
      let grid = SampleGrid(
        scale: scale, columns: 64 * scale, firstRow: 0, rowCount: 8 * scale,
        rayX: UnsafeBufferPointer(start: nil, count: 0),
        rayY: UnsafeBufferPointer(start: nil, count: 0))
      for sy in 0..<grid.rowCount {
        let v = grid.v(sy)
        for sx in stride(from: 0, to: grid.columns, by: laneCount) {
          let lanes = polygon.covers(u: grid.u(lanesFrom: sx), v: v)
          for lane in 0..<laneCount {
            let u = grid.u(sx + lane)
            #expect(lanes[lane] == polygon.covers(u: u, v: v), "trial \(trial) (\(u), \(v))")
            let edges = [polygon.edges.0, polygon.edges.1, polygon.edges.2]
            if edges.contains(where: { edge in
              (edge.bx - edge.ax) * (v - edge.ay) == (edge.by - edge.ay) * (u - edge.ax)
                && edge.bx != edge.ax
            }) {
              onEdge += 1
            }
          }
        }
      }
    }
    // The lattice puts samples on the lines: the fill rule's ties were exercised.
    #expect(onEdge > 1000)
  }

  @Test("firstChange finds the change of a monotone predicate whatever the guess")
  func firstChangeIgnoresGuess() {
    for a in 0..<6 {
      for b in (a + 1)..<40 {
        for change in (a + 1)...b {
          for guess in [Int.min / 2, -3, a, a + 1, change - 2, change, change + 3, b, Int.max / 2] {
            #expect(
              ScreenPolygon.firstChange(a, b, startingAt: true, guess: guess) { $0 < change }
                == change)
            #expect(
              ScreenPolygon.firstChange(a, b, startingAt: false, guess: guess) { $0 >= change }
                == change)
          }
        }
      }
    }
  }

  @Test("degenerate outlines are rejected")
  func degenerate() {
    #expect(ScreenPolygon(vertices: [(u: 0, v: 0), (u: 1, v: 1), (u: 2, v: 2)]) == nil)
    #expect(ScreenPolygon(vertices: [(u: 0, v: 0), (u: .nan, v: 1), (u: 2, v: 0)]) == nil)
  }
}
