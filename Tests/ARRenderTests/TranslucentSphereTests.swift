import ARMath
import ARScene
import Testing

@testable import ARRender

@Suite("Translucent spheres in lanes")
struct TranslucentSphereTests {
  /// A random scene crowded with translucent spheres: uniform and non-uniform scale, lambert,
  /// blinn with whole and fractional shininess, constant; some cut by the near plane or around
  /// the camera, over opaque spheres and a plane; one to three lights.
  static func scene(trial: Int, random: inout SeededGenerator) -> (root: Node, translucent: [Node])
  {
    func uniform(_ range: ClosedRange<Double>) -> Double {
      range.lowerBound + Double(random.next() >> 11) / Double(1 << 53)
        * (range.upperBound - range.lowerBound)
    }
    let root = Node()
    for index in 0..<(1 + trial % 3) {
      let light = Node()
      light.light = Light(
        kind: .directional, color: Color(red: uniform(0.5...1), green: 1, blue: uniform(0.5...1)),
        intensity: uniform(0.4...1.2))
      light.eulerAngles = Vector3(uniform(-1.5...0), uniform(-1...1), Double(index))
      root.addChildNode(light)
    }
    let ambient = Node()
    ambient.light = Light(kind: .ambient, intensity: uniform(0...0.3))
    root.addChildNode(ambient)
    root.addChildNode(randomSceneFloor())
    for _ in 0..<3 {
      let rock = Node(
        geometry: Geometry(
          .sphere(Sphere(radius: uniform(0.1...0.4))),
          material: Material(diffuse: Color(red: 0.7, green: 0.5, blue: 0.3))))
      rock.position = Vector3(uniform(-1...1), uniform(-0.7...0.7), uniform(-4 ... -1.5))
      root.addChildNode(rock)
    }
    var translucent: [Node] = []
    for index in 0..<(4 + Int(uniform(0...6))) {
      let model: LightingModel = [.lambert, .blinn, .blinn, .constant][index % 4]
      let material = Material(
        diffuse: Color(red: uniform(0...1.2), green: uniform(0...1), blue: uniform(0...1)),
        specular: Color(red: uniform(0...1), green: 1, blue: 0.5),
        shininess: [1, 7, 24, 2.5, 0][Int(uniform(0...4.99))], lightingModel: model)
      let node = Node(
        geometry: Geometry(.sphere(Sphere(radius: uniform(0.1...0.8))), material: material))
      // Mostly ahead; index 0 of every third trial around the camera (its far side shows).
      node.position =
        index == 0 && trial % 3 == 0
        ? Vector3(uniform(-0.05...0.05), 0, uniform(-0.05...0.05))
        : Vector3(uniform(-1.2...1.2), uniform(-0.8...0.8), uniform(-4 ... -0.2))
      node.eulerAngles = Vector3(uniform(-3...3), uniform(-3...3), uniform(-3...3))
      // Non-uniform scale takes the Double quadratic, uniform the Float depths.
      node.scale = index % 3 == 1 ? Vector3(1, 1.4, 0.7) : Vector3(1, 1, 1)
      node.opacity = uniform(0.15...0.85)
      root.addChildNode(node)
      translucent.append(node)
    }
    return (root, translucent)
  }

  @Test(
    "every build's lanes give the scalar reference pass's bytes, at 1 to 3 samples per pixel and any thread count"
  )
  func lanesMatchScalarReference() {
    var random = SeededGenerator(seed: 26)
    var blendedPixels = 0
    var pixels = 0
    for trial in 0..<24 {
      let (root, translucent) = Self.scene(trial: trial, random: &random)
      let camera = originCamera(
        width: 48 + 8 * (trial % 4), height: 36, focal: 40, near: [0.001, 0.3, 0.6][trial % 3])
      let background = Background.verticalGradient(
        top: .white, bottom: Color(red: 0.2, green: 0.3, blue: 0.4))
      // Content: the translucent spheres change many pixels.
      let counts = expectLanesMatchReferencePaths(
        root, content: translucent, camera: camera, label: "trial \(trial)"
      ) { set, threads in
        RenderOptions(
          threads: threads, supersampling: 1 + trial % 3, background: background,
          instructionSet: set)
      }
      blendedPixels += counts.changed
      pixels += counts.pixels
    }
    #expect(blendedPixels > pixels / 2, "\(blendedPixels) of \(pixels) pixels blended")
  }

  @Test(
    "rows whose width is no multiple of the lane count match the reference, the last block part filled"
  )
  func oddWidthsMatchScalarReference() {
    var random = SeededGenerator(seed: 126)
    var blendedPixels = 0
    var pixels = 0
    for trial in 0..<9 {
      let (root, translucent) = Self.scene(trial: trial, random: &random)
      let camera = originCamera(width: 45 + 7 * (trial % 3), height: 23, focal: 36)
      let counts = expectLanesMatchReferencePaths(
        root, content: translucent, camera: camera, label: "odd width, trial \(trial)"
      ) { set, threads in
        RenderOptions(
          threads: threads, supersampling: 1 + trial % 2, background: .solid(.black),
          instructionSet: set)
      }
      blendedPixels += counts.changed
      pixels += counts.pixels
    }
    #expect(blendedPixels > pixels / 2, "\(blendedPixels) of \(pixels) pixels blended")
  }
}
