import ARMath
import ARScene
import Testing

@testable import ARRasterizer
@testable import ARRender

/// Background runs (`BackgroundRuns`): rows whose long runs of background samples are painted
/// straight from the background colour and the translucent triangles give the bytes of the
/// sample path (shading, blending and the resolve of every sample).
@Suite("Background runs")
struct BackgroundRunsTests {
  @Test(
    "find keeps whole background vectors, four or more in a row, and leaves the rest as content")
  func findSplitsRow() {
    // Eight lanes in this (baseline) build: vectors 0, 8, 16, …
    #expect(laneCount == 8)
    var ids = [Int32](repeating: -1, count: 100 + 16)
    ids[5] = 0  // vector 0 holds content
    ids[70] = 3  // vector 64 too; 72 ..< 96 is three background vectors: too short
    var storage = [Range<Int>](repeating: 0..<0, count: 2 * BackgroundRuns.capacity(columns: 100))
    storage.withUnsafeMutableBufferPointer { storage in
      var runs = BackgroundRuns(storage: storage, columns: 100)
      ids.withUnsafeBufferPointer { runs.find(ids: $0.baseAddress!, columns: 100) }
      #expect(Array(runs.background) == [8..<64])
      #expect(Array(runs.content) == [0..<8, 64..<100])
      // A row of background only: all whole vectors, the last partial one (96 ..< 100) content.
      ids[5] = -1
      ids[70] = -1
      ids.withUnsafeBufferPointer { runs.find(ids: $0.baseAddress!, columns: 100) }
      #expect(Array(runs.background) == [0..<96])
      #expect(Array(runs.content) == [96..<100])
      // Content in every vector: one content run.
      for i in stride(from: 3, to: 100, by: 8) { ids[i] = 1 }
      ids.withUnsafeBufferPointer { runs.find(ids: $0.baseAddress!, columns: 100) }
      #expect(runs.background.isEmpty)
      #expect(Array(runs.content) == [0..<100])
    }
  }

  @Test("find's skipping search gives the runs of a vector-by-vector scan, on random rows")
  func findMatchesScan() {
    var random = SeededGenerator(seed: 3132)
    let columns = 8 * 61 + 5
    var storage = [Range<Int>](
      repeating: 0..<0, count: 2 * BackgroundRuns.capacity(columns: columns))
    for trial in 0..<400 {
      // Rows from mostly content to mostly background, in clumps of vectors.
      let contentShare = Double(trial % 10) / 10
      var ids = [Int32](repeating: -1, count: columns + 16)
      var sx = 0
      while sx < columns {
        let length = 1 + Int(random.next() % 40)
        let isContent = Double(random.next() % 1000) / 1000 < contentShare
        for i in sx..<min(columns, sx + length) where isContent { ids[i] = 2 }
        sx += length
      }
      // The reference: maximal runs of whole background vectors, at least four long.
      var background: [Range<Int>] = []
      var content: [Range<Int>] = []
      let whole = columns - columns % laneCount
      var contentStart = 0
      var v = 0
      while v < whole {
        guard ids[v..<(v + laneCount)].allSatisfy({ $0 < 0 }) else {
          v += laneCount
          continue
        }
        var end = v + laneCount
        while end < whole, ids[end..<(end + laneCount)].allSatisfy({ $0 < 0 }) {
          end += laneCount
        }
        if end - v >= BackgroundRuns.minimumVectors * laneCount {
          if contentStart < v { content.append(contentStart..<v) }
          background.append(v..<end)
          contentStart = end
        }
        v = end
      }
      if contentStart < columns { content.append(contentStart..<columns) }
      storage.withUnsafeMutableBufferPointer { storage in
        var runs = BackgroundRuns(storage: storage, columns: columns)
        ids.withUnsafeBufferPointer { runs.find(ids: $0.baseAddress!, columns: columns) }
        #expect(Array(runs.background) == background, "trial \(trial)")
        #expect(Array(runs.content) == content, "trial \(trial)")
      }
    }
  }

  @Test("paintBackground writes each piece's blended colour, resolved")
  func paintWritesPieces() {
    let color = SIMD3<Float>(0.5, 0.25, 1)
    let blends = [
      TranslucentBackgroundBlend(columns: 10..<30, keep: 0.5, premultiplied: SIMD3(0.25, 0, 0)),
      TranslucentBackgroundBlend(columns: 20..<50, keep: 0.5, premultiplied: SIMD3(0, 0.5, 0)),
    ]
    var words = [UInt32](repeating: 0, count: 60)
    words.withUnsafeMutableBytes {
      paintBackground(4..<40, color: color, blends: blends, into: $0.baseAddress!)
    }
    // Hand-computed: 0.5·255 = 127.5 → 128; 0.25·255 = 63.75 → 64; 1 → 255.
    let background: UInt32 = 0xFF_FF_40_80
    // First blend: red 0.5·0.5 + 0.25 = 0.5, green 0.125 (31.875 → 32), blue 0.5.
    let first: UInt32 = 0xFF_80_20_80
    // Both, in order: red 0.5·0.5 = 0.25 (63.75 → 64), green 0.125·0.5 + 0.5 = 0.5625
    // (143.4375 → 143), blue 0.25.
    let both: UInt32 = 0xFF_40_8F_40
    // Second alone: red 0.5·0.5 = 0.25, green 0.25·0.5 + 0.5 = 0.625 (159.375 → 159), blue 0.5.
    let second: UInt32 = 0xFF_80_9F_40
    var expected = [UInt32](repeating: 0, count: 60)
    for i in 4..<10 { expected[i] = background }
    for i in 10..<20 { expected[i] = first }
    for i in 20..<30 { expected[i] = both }
    for i in 30..<40 { expected[i] = second }
    #expect(words.map(\.littleEndian) == expected)
  }

  @Test("B1-like rows: every build's background runs give the sample path's bytes, 1 and 3 threads")
  func runsMatchSamplePath() {
    var random = SeededGenerator(seed: 3131)
    func uniform(_ range: ClosedRange<Double>) -> Double {
      range.lowerBound + Double(random.next() >> 11) / Double(1 << 53)
        * (range.upperBound - range.lowerBound)
    }
    var changed = 0
    var pixels = 0
    for trial in 0..<8 {
      let root = Node()
      let light = Node()
      light.light = Light(kind: .directional, intensity: 1)
      light.eulerAngles = Vector3(-0.6, 0.3, 0)
      root.addChildNode(light)
      // A translucent constant-lit floor and wall (as B1's plane visualisations); in odd
      // trials the wall is lit, so its rows take the sample path.
      let floor = Node(
        geometry: Geometry(
          .plane(Plane(width: 6, height: 6)),
          material: Material(
            diffuse: Color(red: 0.3, green: 0.6, blue: 0.4), lightingModel: .constant)))
      floor.position = Vector3(uniform(-0.5...0.5), -0.8, -3)
      floor.eulerAngles = Vector3(-Double.pi / 2, 0, uniform(-0.3...0.3))
      floor.opacity = 0.5
      root.addChildNode(floor)
      let wall = Node(
        geometry: Geometry(
          .plane(Plane(width: uniform(1...3), height: uniform(0.5...1.5))),
          material: Material(
            diffuse: Color(red: 0.9, green: 0.8, blue: 0.2),
            lightingModel: trial % 2 == 0 ? .constant : .lambert)))
      wall.position = Vector3(uniform(-0.8...0.8), uniform(-0.3...0.3), -uniform(2...4))
      wall.eulerAngles = Vector3(0, uniform(-0.5...0.5), 0)
      wall.opacity = 0.35
      root.addChildNode(wall)
      var spheres: [Node] = []
      for index in 0..<(4 + trial) {
        let material = Material(
          diffuse: Color(red: uniform(0...1), green: uniform(0...1), blue: uniform(0...1)),
          specular: Color(red: 0.35, green: 0.35, blue: 0.35), shininess: 24,
          lightingModel: index % 3 == 0 ? .lambert : .blinn)
        let node = Node(
          geometry: Geometry(.sphere(Sphere(radius: uniform(0.03...0.15))), material: material))
        // In front of the wall and behind it; some beyond the floor's edge.
        node.position = Vector3(uniform(-1.2...1.2), uniform(-0.7...0.7), -uniform(1...5))
        root.addChildNode(node)
        spheres.append(node)
      }
      let camera = originCamera(width: 150 + 13 * trial, height: 60, focal: 80)
      let counts = expectLanesMatchReferencePaths(
        root, content: spheres, camera: camera, label: "trial \(trial)"
      ) { set, threads in
        RenderOptions(
          threads: threads, supersampling: 1,
          background: .verticalGradient(
            top: Color(red: 0.62, green: 0.70, blue: 0.78),
            bottom: Color(red: 0.30, green: 0.30, blue: 0.33)),
          instructionSet: set)
      }
      changed += counts.changed
      pixels += counts.pixels
    }
    // The spheres cover some pixels; most rows keep long background runs.
    #expect(changed > pixels / 50 && changed < pixels / 2, "\(changed) of \(pixels) pixels")
  }
}
