import ARMath
import ARScene
import Foundation
import Testing

@testable import ARRender

@Suite struct InstructionSetTests {
  /// The processor's flags as Linux reports them (an independent reading of CPUID), or nil
  /// where /proc/cpuinfo is unavailable.
  static var cpuinfoFlags: Set<String>? {
    guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
      let flags = text.split(separator: "\n").first(where: { $0.hasPrefix("flags") })
    else { return nil }
    return Set(flags.split(separator: " ").map(String.init))
  }

  /// x86-64-v3 (with v2) and v4 in Linux's flag names (SSE3 is "pni", LZCNT "abm").
  static let v3Flags: Set = [
    "pni", "ssse3", "sse4_1", "sse4_2", "popcnt", "cx16", "lahf_lm",
    "avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe",
  ]
  static let v4Flags: Set = ["avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"]

  /// The instruction sets this machine runs, besides baseline.
  static var vectorInstructionSets: [InstructionSet] {
    [.avx2, .avx512].filter {
      Renderer(options: RenderOptions(instructionSet: $0)).instructionSet == $0
    }
  }

  @Test("automatic picks the best level /proc/cpuinfo lists; requests fall back to lower levels")
  func resolution() throws {
    func resolved(_ set: InstructionSet) -> InstructionSet {
      Renderer(options: RenderOptions(instructionSet: set)).instructionSet
    }
    #expect(resolved(.baseline) == .baseline)
    // Each level runs the module compiled for it (its own ARSIM_RASTERIZER_… define).
    for set in [InstructionSet.automatic, .baseline, .avx2, .avx512] {
      #expect(Renderer.rasterizer(for: resolved(set)).compiledFor == resolved(set), "\(set)")
    }
    #if arch(x86_64) && os(Linux)
      let flags = try #require(Self.cpuinfoFlags)
      let v3 = Self.v3Flags.isSubset(of: flags)
      let v4 = v3 && Self.v4Flags.isSubset(of: flags)
      #expect(resolved(.automatic) == (v4 ? .avx512 : v3 ? .avx2 : .baseline))
      #expect(resolved(.avx2) == (v3 ? .avx2 : .baseline))
    #endif
  }

  @Test(
    "every build this machine runs gives the baseline's image and depth bytes on random scenes",
    .enabled(if: !vectorInstructionSets.isEmpty))
  func sameBytes() {
    var random = SeededGenerator(seed: 2026)
    func uniform(_ range: ClosedRange<Double>) -> Double {
      range.lowerBound + Double(random.next() >> 11) / Double(1 << 53)
        * (range.upperBound - range.lowerBound)
    }
    let texture = Texture(
      width: 2, height: 2, pixels: [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 9, 9, 9, 255])
    var litSamples = 0
    // Content check: the scenes are not blank.
    var colours = Set<UInt32>()
    for trial in 0..<60 {
      let width = 8 + Int(uniform(0...40))
      let height = 6 + Int(uniform(0...30))
      let camera = originCamera(
        width: width, height: height, focal: uniform(5...60), near: [0.001, 0.5, 1.2][trial % 3])
      let root = Node()
      let light = Node()
      light.light = Light(kind: .directional)
      light.eulerAngles = Vector3(uniform(-1.5...0), uniform(-1...1), 0)
      root.addChildNode(light)
      for index in 0..<(2 + Int(uniform(0...8))) {
        let shape: Shape
        switch index % 4 {
        case 0, 1: shape = .sphere(Sphere(radius: uniform(0.05...1.5)))
        case 2: shape = .box(Box(width: uniform(0.1...1), height: uniform(0.1...1), length: 0.3))
        default: shape = .plane(Plane(width: uniform(0.5...3), height: uniform(0.5...3)))
        }
        let model = LightingModel.allCases[Int(uniform(0...2.99))]
        let material = Material(
          diffuse: Color(red: uniform(0...1), green: uniform(0...1), blue: uniform(0...1)),
          diffuseTexture: index % 3 == 0 ? texture : nil,
          specular: Color(red: uniform(0...1), green: 1, blue: 0.5),
          shininess: [1, 7, 24, 2.5][Int(uniform(0...3.99))], lightingModel: model,
          isDoubleSided: index % 2 == 0)
        let node = Node(geometry: Geometry(shape, material: material))
        node.position = Vector3(uniform(-2...2), uniform(-2...2), uniform(-5...0.5))
        node.eulerAngles = Vector3(uniform(-3...3), uniform(-3...3), uniform(-3...3))
        // Uniform and non-uniform scale: the Float and Double sphere paths.
        node.scale = index % 5 == 0 ? Vector3(1, 1.3, 0.8) : Vector3(1, 1, 1)
        node.opacity = uniform(0...1) < 0.3 ? 0.5 : 1
        if model != .constant { litSamples += 1 }
        root.addChildNode(node)
      }
      let background: Background =
        switch trial % 3 {
        case 0: .solid(.black)
        case 1: .verticalGradient(top: .white, bottom: Color(red: 0.2, green: 0.3, blue: 0.4))
        default: .image(Image(width: 3, height: 2, fill: (10, 200, 30, 255)))
        }
      func render(_ instructionSet: InstructionSet) -> RenderedFrame {
        let options = RenderOptions(
          threads: 2, supersampling: 1 + trial % 3, background: background, writesDepth: true,
          instructionSet: instructionSet)
        return Renderer(options: options).render(RenderList(root: root), camera: camera)
      }
      let baseline = render(.baseline)
      for i in stride(from: 0, to: baseline.image.pixels.count, by: 4) {
        colours.insert(
          UInt32(baseline.image.pixels[i]) << 16 | UInt32(baseline.image.pixels[i + 1]) << 8
            | UInt32(baseline.image.pixels[i + 2]))
      }
      for set in Self.vectorInstructionSets {
        let vector = render(set)
        #expect(baseline.image == vector.image, "trial \(trial), \(set)")
        #expect(baseline.depth == vector.depth, "trial \(trial), \(set)")
        #expect(
          baseline.depthMetres.map(\.bitPattern) == vector.depthMetres.map(\.bitPattern),
          "trial \(trial), \(set)")
      }
    }
    #expect(litSamples > 100)
    #expect(colours.count > 1000)
  }
}
