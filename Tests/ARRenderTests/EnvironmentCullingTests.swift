import ARMath
import ARRenderCore
import ARScene
import Testing

@testable import ARRasterizer
@testable import ARRender

/// Environment triangles left out of a frame (`EnvironmentViewBounds`) and the environment's
/// bytes across rasterizer builds and thread counts.
@Suite struct EnvironmentCullingTests {
  /// A random environment around a camera at the origin: triangles 0.05–1 m on every side,
  /// behind it and across its near plane, on a 4 × 4 checker texture.
  static func environment(seed: UInt64, count: Int) -> EnvironmentGeometry? {
    var random = SeededGenerator(seed: seed)
    func uniform(_ range: ClosedRange<Double>) -> Double {
      range.lowerBound + Double(random.next() >> 11) / Double(1 << 53)
        * (range.upperBound - range.lowerBound)
    }
    var positions: [SIMD3<Double>] = []
    var uvs: [SIMD2<Double>] = []
    for _ in 0..<count {
      let centre = SIMD3(uniform(-3...3), uniform(-3...3), uniform(-4...1.5))
      let size = uniform(0.05...1)
      for _ in 0..<3 {
        positions.append(
          centre + SIMD3(uniform(-1...1), uniform(-1...1), uniform(-1...1)) * size)
        uvs.append(SIMD2(uniform(-2...3), uniform(-2...3)))
      }
    }
    var texels: [UInt8] = []
    for y in 0..<4 {
      for x in 0..<4 {
        let on = (x + y) % 2 == 0
        texels += [on ? 230 : 20, UInt8(40 * x), UInt8(50 * y), 255]
      }
    }
    guard let texture = Texture(width: 4, height: 4, pixels: texels) else { return nil }
    return EnvironmentGeometry(
      positions: positions, uvs: uvs,
      materialIndices: (0..<count).map { Int32($0 % 2) },
      materials: [
        EnvironmentMaterial(
          baseColor: Color(red: 0.9, green: 1, blue: 0.8), texture: MipmappedTexture(texture)),
        EnvironmentMaterial(baseColor: Color(red: 0.3, green: 0.6, blue: 0.9)),
      ])
  }

  @Test("triangles left out of a frame cover no sample; the others are kept")
  func culledCoverNothing() throws {
    var culled = 0
    for (trial, near) in [0.001, 0.3, 1.0].enumerated() {
      let environment = try #require(Self.environment(seed: 40 + UInt64(trial), count: 400))
      let camera = originCamera(width: 48, height: 36, focal: 30, near: near)
      var list = RenderList(root: Node())
      list.environment = environment
      let frame = PreparedFrame(list, camera: camera)
      // Every triangle, prepared without culling; those the frame kept match its own.
      let view = EnvironmentViewBounds(intrinsics: camera.intrinsics, near: near)
      var kept = 0
      for triangle in 0..<environment.triangleCount {
        func vertex(_ k: Int) -> TriangleVertex {
          TriangleVertex(
            position: environment.positions[3 * triangle + k],
            uv: environment.uvs[3 * triangle + k])
        }
        let (a, b, c) = (vertex(0), vertex(1), vertex(2))
        let prepared = TrianglePrimitive(
          a, b, c, doubleSided: true, intrinsics: camera.intrinsics, near: near)
        if view.mayShow(a.position, b.position, c.position) {
          if prepared != nil { kept += 1 }
          continue
        }
        guard let prepared else { continue }
        culled += 1
        // No sample of a 1×1 or 2×2 grid inside it.
        for n in [1, 2] {
          for sy in 0..<(36 * n) {
            for sx in 0..<(48 * n) {
              let u = (Double(sx) + 0.5) / Double(n) - 0.5
              let v = (Double(sy) + 0.5) / Double(n) - 0.5
              #expect(
                !prepared.outline.covers(u: u, v: v),
                "trial \(trial): culled triangle \(triangle) covers (\(u), \(v))")
            }
          }
        }
      }
      #expect(frame.triangles.count == kept, "trial \(trial)")
      #expect(kept > 20 && kept < environment.triangleCount - 100, "trial \(trial): \(kept)")
    }
    // Projected but outside the image: what the culling saves.
    #expect(culled > 100)
  }

  @Test(
    "an environment renders the same bytes for every build this machine runs and thread count")
  func sameBytes() throws {
    var sets: [InstructionSet] = [.baseline]
    sets += [.avx2, .avx512].filter {
      Renderer(options: RenderOptions(instructionSet: $0)).instructionSet == $0
    }
    var colours = Set<UInt32>()
    for trial in 0..<6 {
      let environment = try #require(Self.environment(seed: 90 + UInt64(trial), count: 300))
      let camera = originCamera(
        width: 40 + 7 * trial, height: 30 + 3 * trial, focal: 25 + 5 * Double(trial),
        near: [0.001, 0.4][trial % 2])
      var list = RenderList(root: Node())
      list.environment = environment
      var reference: RenderedFrame?
      for set in sets {
        for threads in [1, 2] {
          let options = RenderOptions(
            threads: threads, supersampling: 1 + trial % 2, background: .solid(.black),
            writesDepth: true, instructionSet: set)
          let frame = Renderer(options: options).render(list, camera: camera)
          guard let first = reference else {
            reference = frame
            for i in stride(from: 0, to: frame.image.pixels.count, by: 4) {
              colours.insert(
                UInt32(frame.image.pixels[i]) << 16 | UInt32(frame.image.pixels[i + 1]) << 8
                  | UInt32(frame.image.pixels[i + 2]))
            }
            continue
          }
          #expect(first.image == frame.image, "trial \(trial), \(set), \(threads) threads")
          #expect(
            first.depthMetres.map(\.bitPattern) == frame.depthMetres.map(\.bitPattern),
            "trial \(trial), \(set), \(threads) threads")
        }
      }
    }
    // Textured, filtered content, not a blank image.
    #expect(colours.count > 200)
  }
}
