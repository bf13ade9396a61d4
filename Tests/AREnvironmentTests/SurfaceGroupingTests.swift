import ARMath
import ARRenderCore
import ARScene
import Testing

@testable import AREnvironment

/// Grouping triangles into candidate surfaces by plane offset (`OffsetBuckets`): only nearby
/// offsets are compared, and the result is the one a comparison with every surface gives.
@Suite struct SurfaceGroupingTests {
  @Test("every offset within the width of another is among that one's candidates")
  func bucketsHoldEveryMatch() {
    var random = SplitMix64(seed: 71)
    for width in [0.01, 0.1, 1e-3, 3.0] {
      var buckets = OffsetBuckets(width: width)
      var offsets: [Double] = []
      for index in 0..<2000 {
        // Around bucket boundaries (k · width, both signs), now and then far away.
        let k = Double(Int.random(in: -50...50, using: &random))
        let nudge = Double.random(in: -1...1, using: &random) * width * 1e-12
        let offset =
          index % 10 == 0 ? Double.random(in: -1e5...1e5, using: &random) : k * width + nudge
        offsets.append(offset)
        buckets.insert(index, bucket: buckets.bucket(offset), alignment: .horizontal)
      }
      for _ in 0..<2000 {
        let index = Int.random(in: 0..<offsets.count, using: &random)
        // A triangle up to one width away, the farthest ones included.
        let step = [width, -width, Double.random(in: -width...width, using: &random)]
        let other = offsets[index] + step[Int.random(in: 0...2, using: &random)]
        guard abs(offsets[index] - other) <= width else { continue }
        let candidates = buckets.candidates(
          near: buckets.bucket(other), alignment: .horizontal, count: offsets.count)
        #expect(candidates.contains(index), "width \(width): \(offsets[index]) vs \(other)")
        // The other alignment's surfaces are never candidates.
        #expect(
          !buckets.candidates(
            near: buckets.bucket(other), alignment: .vertical, count: offsets.count
          ).contains(index))
      }
    }
  }

  @Test("offsets that are not safe bucket numbers fall back to comparing with every surface")
  func unsafeOffsets() {
    var buckets = OffsetBuckets(width: 0.01)
    #expect(buckets.bucket(.nan) == nil)
    #expect(buckets.bucket(.infinity) == nil)
    #expect(buckets.bucket(1e300) == nil)
    #expect(buckets.bucket(-0.015) == -2)
    buckets.insert(0, bucket: buckets.bucket(1e300), alignment: .horizontal)
    buckets.insert(1, bucket: buckets.bucket(0.5), alignment: .horizontal)
    // The overflow list is read by every search; an unsafe triangle reads everything.
    #expect(
      Set(buckets.candidates(near: buckets.bucket(0.5), alignment: .horizontal, count: 2))
        == [0, 1])
    #expect(buckets.candidates(near: nil, alignment: .vertical, count: 2) == [0, 1])
    for width in [0.0, -1, .infinity, .nan] {
      #expect(OffsetBuckets(width: width).bucket(0.5) == nil)
    }
  }

  /// `n` horizontal 1 m × 1 m squares (two triangles each, facing up) at heights `heights`.
  static func squares(at heights: [Double]) throws -> Environment {
    var positions: [SIMD3<Double>] = []
    for (i, y) in heights.enumerated() {
      // Side by side along x, so no two share a point.
      let x = Double(i) * 2
      let corners = [
        SIMD3(x, y, 0), SIMD3(x + 1, y, 0), SIMD3(x + 1, y, -1), SIMD3(x, y, -1),
      ]
      positions += [corners[0], corners[1], corners[2], corners[0], corners[2], corners[3]]
    }
    let geometry = try #require(
      EnvironmentGeometry(
        positions: positions, uvs: positions.map { _ in .zero },
        materialIndices: [Int32](repeating: 0, count: positions.count / 3),
        materials: [EnvironmentMaterial()]))
    return Environment(
      geometry: geometry,
      parts: [
        Environment.Part(name: "squares", triangles: 0..<(positions.count / 3), classification: nil)
      ], inputPaths: [], warnings: [])
  }

  @Test(
    "a flat square tilted within the horizontal tolerance is one surface; a parallel one 3 cm above is another"
  )
  func tiltedSquare() throws {
    // y = 0.17 · z: tilted by atan 0.17 = 9.6° (under the 10° tolerance). Its two triangles'
    // centroids lie 11 cm apart in height, so grouping by height alone split it in two.
    var positions: [SIMD3<Double>] = []
    for (x, lift) in [(0.0, 0.0), (3.0, 0.03)] {
      let corners = [(0.0, 0.0), (2.0, 0.0), (2.0, -2.0), (0.0, -2.0)].map {
        SIMD3(x + $0.0, 0.17 * $0.1 + lift, $0.1)
      }
      positions += [corners[0], corners[1], corners[2], corners[0], corners[2], corners[3]]
    }
    let geometry = try #require(
      EnvironmentGeometry(
        positions: positions, uvs: positions.map { _ in .zero },
        materialIndices: [Int32](repeating: 0, count: 4), materials: [EnvironmentMaterial()]))
    let environment = Environment(
      geometry: geometry,
      parts: [Environment.Part(name: "tilted", triangles: 0..<4, classification: nil)],
      inputPaths: [], warnings: [])
    let surfaces = EnvironmentSurface.find(in: environment, alignments: [.horizontal])
    #expect(surfaces.count == 2)
    let area = 2 * 2 * (1 + 0.17 * 0.17).squareRoot()
    for surface in surfaces {
      #expect(abs(surface.area - area) < 1e-9, "\(surface.area)")
      #expect(surface.alignment == .horizontal)
    }
  }

  @Test("squares on many levels: one surface per level, levels within 1 cm merged")
  func manyLevels() throws {
    // 3 000 levels 2 cm apart (no two within the 1 cm coplanar distance), each with a second
    // square 0.6 cm above it, which joins the level's surface (its offset is within 1 cm of
    // the level's first square, the surface's offset).
    let levels = 3000
    var heights: [Double] = []
    for level in 0..<levels {
      heights += [Double(level) * 0.02, Double(level) * 0.02 + 0.006]
    }
    let surfaces = EnvironmentSurface.find(
      in: try Self.squares(at: heights), alignments: [.horizontal])
    #expect(surfaces.count == levels)
    // In the order of their first triangles: level by level, two squares (2 m²) each.
    for (level, surface) in surfaces.enumerated() {
      #expect(abs(surface.worldFromSurface.translation.y - Double(level) * 0.02) < 1e-12)
      #expect(abs(surface.area - 2) < 1e-9, "level \(level)")
    }
  }
}
