import ARMath
import ARRenderCore
import ARScene
import Testing

@testable import ARRasterizer
@testable import ARRender

/// `EnvironmentRunBatch`: runs of several triangles shaded in one vector step give each sample
/// the bits its run gives alone (`EnvironmentSamplerLanes` with that run's constants in every
/// lane), whatever the runs' lengths, gaps and textures.
@Suite struct EnvironmentRunBatchTests {
  /// Two textures with different sizes and wrap modes (a batch must not mix them).
  static func textures() throws -> [MipmappedTexture] {
    let stripes = try #require(EnvironmentFloatLaneTests.texture())
    var texels: [UInt8] = []
    for y in 0..<13 {
      for x in 0..<7 { texels += [UInt8(30 * x), UInt8(19 * y), UInt8((x * y) % 256), 255] }
    }
    let small = try #require(Texture(width: 7, height: 13, pixels: texels))
    return [
      MipmappedTexture(stripes, wrapU: .repeat, wrapV: .mirroredRepeat),
      MipmappedTexture(small, wrapU: .clamp, wrapV: .repeat),
    ]
  }

  /// The colour of every sample of a run shaded alone, a step of `laneCount` at a time with the
  /// run's constants broadcast (lanes past the run repeat its last sample).
  static func alone(_ sampler: EnvironmentRunSampler, count: Int, texture: TextureView)
    -> [SIMD3<Float>]
  {
    var lanes = EnvironmentSamplerLanes()
    lanes.take(sampler, fromLane: 0)
    var colors: [SIMD3<Float>] = []
    var first = 0
    while first < count {
      let columns = FloatLanes.laneIndices + Float(first)
      let last = FloatLanes(repeating: Float(count - 1))
      let (red, green, blue) = lanes.colors(
        k: select(columns .< last, columns, last), texture: texture)
      for lane in 0..<min(laneCount, count - first) {
        colors.append(SIMD3(red[lane], green[lane], blue[lane]))
      }
      first += laneCount
    }
    return colors
  }

  @Test("batched runs give the bits of each run alone, for short, long, split and gapped runs")
  func batchedEqualsAlone() throws {
    let textures = try Self.textures()
    let camera = originCamera(width: 160, height: 120, focal: 150)
    let intrinsics = camera.intrinsics
    var frame = PreparedFrame(RenderList(root: Node()), camera: camera)
    for texture in textures { _ = frame.appendMipTexture(texture) }
    var random = SeededGenerator(seed: 59)
    let samples = 400
    var depths = [Float](repeating: .infinity, count: samples + 32)
    var ids = [Int32](repeating: -1, count: samples + 32)
    var red = [Float](repeating: -1, count: samples + 32)
    var green = [Float](repeating: -1, count: samples + 32)
    var blue = [Float](repeating: -1, count: samples + 32)
    var batchedRuns = 0
    var splitRuns = 0
    for trial in 0..<60 {
      for k in red.indices { (red[k], green[k], blue[k]) = (-1, -1, -1) }
      var expected = [SIMD3<Float>?](repeating: nil, count: samples)
      depths.withUnsafeMutableBufferPointer { depths in
        ids.withUnsafeMutableBufferPointer { ids in
          red.withUnsafeMutableBufferPointer { red in
            green.withUnsafeMutableBufferPointer { green in
              blue.withUnsafeMutableBufferPointer { blue in
                let buffers = SampleBuffers(
                  depths: depths, ids: ids, red: red, green: green, blue: blue)
                var batch = EnvironmentRunBatch()
                var start = Int.random(in: 0..<5, using: &random)
                while true {
                  // Mostly the few samples a detailed model's triangle covers; now and then
                  // a run of several steps, or a gap (another primitive's samples).
                  let count =
                    Int.random(in: 0..<8, using: &random) == 0
                    ? Int.random(in: 17...45, using: &random)
                    : Int.random(in: 1...6, using: &random)
                  guard start + count <= samples else { break }
                  let texture = trial % 3 == 0 ? Int.random(in: 0...1, using: &random) : 0
                  // A small tilted triangle 1–6 m ahead, uv far outside 0…1.
                  let centre = SIMD3(
                    Double.random(in: -1...1, using: &random),
                    Double.random(in: -1...1, using: &random),
                    -Double.random(in: 1...6, using: &random))
                  func corner() -> TriangleVertex {
                    TriangleVertex(
                      position: centre
                        + SIMD3(
                          Double.random(in: -0.3...0.3, using: &random),
                          Double.random(in: -0.3...0.3, using: &random),
                          Double.random(in: -0.3...0.3, using: &random)),
                      uv: SIMD2(
                        Double.random(in: -9...9, using: &random),
                        Double.random(in: -9...9, using: &random)))
                  }
                  let (a, b, c) = (corner(), corner(), corner())
                  guard
                    var triangle = TrianglePrimitive(
                      a, b, c, doubleSided: true, intrinsics: intrinsics, near: 0.01)
                  else { continue }
                  let dy = Double.random(in: -0.4...0.4, using: &random)
                  let uStart = Double.random(in: 0...100, using: &random)
                  let diffuse = SIMD3(
                    Double.random(in: 0.2...1, using: &random), 1,
                    Double.random(in: 0.2...1, using: &random))
                  guard
                    let sampler = withUnsafePointer(
                      to: &triangle,
                      { pointer in
                        EnvironmentRunSampler(
                          triangle: pointer, diffuse: diffuse,
                          texture: frame.mipTextureShapes[texture], intrinsics: intrinsics,
                          dy: dy, uStart: uStart, uStep: 1, dyStep: -1 / intrinsics.fy,
                          count: count)
                      })
                  else { continue }
                  let colors = Self.alone(
                    sampler, count: count, texture: frame.mipTextures[texture].view)
                  for (offset, color) in colors.enumerated() { expected[start + offset] = color }
                  if batch.filled > 0, batch.filled + count > laneCount { splitRuns += 1 }
                  if batch.filled > 0 { batchedRuns += 1 }
                  frame.add(
                    sampler, texture: texture, range: start..<(start + count), to: &batch,
                    into: buffers)
                  start += count + (Int.random(in: 0..<6, using: &random) == 0 ? 3 : 0)
                }
                frame.flush(&batch, into: buffers)
              }
            }
          }
        }
      }
      for sample in 0..<samples {
        let got = SIMD3(red[sample], green[sample], blue[sample])
        if let color = expected[sample] {
          #expect(got == color, "trial \(trial) sample \(sample)")
        } else {
          // Samples between runs are left as they were.
          #expect(got == SIMD3(repeating: -1), "trial \(trial) gap sample \(sample)")
        }
      }
    }
    // Runs did share steps, and some were split across two.
    #expect(batchedRuns > 500)
    #expect(splitRuns > 100)
  }
}
