import ARMath
import ARScene
import Testing

@testable import ARRasterizer
@testable import ARRender

/// An image background of the output's size at one sample per pixel (a camera image resampled
/// onto the output camera) is read as it is (`BackgroundSampler.copyRow`), not interpolated.
@Suite struct ImageBackgroundTests {
  /// `width`×`height` pixels of seeded bytes.
  static func noise(width: Int, height: Int, seed: UInt64) -> Image {
    var generator = SeededGenerator(seed: seed)
    let pixels = (0..<(width * height * 4)).map { _ in UInt8.random(in: 0...255, using: &generator)
    }
    return Image(width: width, height: height, pixels: pixels) ?? Image(width: 0, height: 0)
  }

  @Test("Float(b) / 255 is the Float nearest Double(b) / 255 for every byte")
  func singleRoundingEqualsDoubleRounding() {
    for b in 0...255 {
      #expect(Float(UInt8(b)) / 255 == Float(Double(b) / 255), "byte \(b)")
    }
  }

  @Test("copyRow gives the samples the bilinear colour at every pixel centre, bit for bit")
  func copyRowEqualsBilinear() {
    let (width, height) = (37, 5)
    let image = Self.noise(width: width, height: height, seed: 3)
    let sampler = BackgroundSampler(.image(image), width: width, height: height, scale: 1)
    #expect(sampler.pixelAligned != nil)
    let padding = BandRenderer.padding
    var red = [Float](repeating: -1, count: width + padding)
    var green = red
    var blue = red
    var depths = [Float](repeating: 0, count: width + padding)
    var ids = [Int32](repeating: -1, count: width + padding)
    for v in 0..<height {
      // Two runs, as shadeOpaque hands them over between primitives.
      for columns in [0..<11, 11..<width] {
        red.withUnsafeMutableBufferPointer { r in
          green.withUnsafeMutableBufferPointer { g in
            blue.withUnsafeMutableBufferPointer { b in
              depths.withUnsafeMutableBufferPointer { d in
                ids.withUnsafeMutableBufferPointer { i in
                  let buffers = SampleBuffers(depths: d, ids: i, red: r, green: g, blue: b)
                  #expect(
                    sampler.copyRow(v, columns: columns, to: columns.lowerBound, into: buffers))
                }
              }
            }
          }
        }
      }
      for u in 0..<width {
        let expected = SIMD3<Float>(sampler.color(u: Double(u), v: Double(v)))
        #expect(SIMD3(red[u], green[u], blue[u]) == expected, "pixel (\(u), \(v))")
      }
      // Past the runs: untouched.
      #expect(red[width] == -1)
    }
  }

  @Test("other sizes and supersampling keep interpolating")
  func otherCasesInterpolate() {
    let image = Self.noise(width: 8, height: 6, seed: 5)
    #expect(BackgroundSampler(.image(image), width: 8, height: 6, scale: 2).pixelAligned == nil)
    #expect(BackgroundSampler(.image(image), width: 16, height: 12, scale: 1).pixelAligned == nil)
    #expect(BackgroundSampler(.solid(.black), width: 8, height: 6, scale: 1).pixelAligned == nil)
  }

  @Test("a render shows the image's bytes where nothing covers it, in every rasterizer build")
  func renderShowsTheImage() {
    let (width, height) = (48, 30)
    let image = Self.noise(width: width, height: height, seed: 9)
    let camera = originCamera(width: width, height: height, focal: 40)
    let root = Node()
    let sphere = Node(geometry: .sphere(radius: 0.3, material: unlitWhite))
    sphere.position = Vector3(0, 0, -2)
    root.addChildNode(sphere)
    let covered = coverage(root, camera: camera)
    #expect(covered.contains(true) && covered.contains(false))
    for set in InstructionSet.allCases {
      let options = RenderOptions(threads: 2, background: .image(image), instructionSet: set)
      let rendered = Renderer(options: options).render(RenderList(root: root), camera: camera)
      for pixel in 0..<(width * height) {
        let shown = Array(rendered.image.pixels[(pixel * 4)..<(pixel * 4 + 4)])
        let expected =
          covered[pixel]
          ? [255, 255, 255, 255] : Array(image.pixels[(pixel * 4)..<(pixel * 4 + 3)]) + [255]
        #expect(shown == expected, "\(set), pixel \(pixel)")
      }
    }
  }
}
