import ARMath
import ARScene
import Testing

@testable import ARRasterizer
@testable import ARRender

/// Uniform-scale spheres take the Float paths (`UniformSphereRow`, `ShadingLights.shadeSphere`);
/// a scale of 1 + 10⁻⁹ on one axis sends the same sphere through the Double paths. Found by a
/// review: a translucent sphere coinciding with an opaque one must not show through.
@Suite("Uniform spheres: Float path against the Double path")
struct UniformSphereFloatPathTests {
  @Test("a translucent copy of an opaque sphere at the same place never blends")
  func coincidentTranslucentCopy() {
    let camera = originCamera(width: 64, height: 48, focal: 60)
    let root = Node()
    let opaque = Node(
      geometry: .sphere(
        radius: 0.3,
        material: Material(diffuse: Color(red: 1, green: 0, blue: 0), lightingModel: .constant)))
    opaque.position = Vector3(0.1, -0.05, -1.7)
    let glass = Node(
      geometry: .sphere(radius: 0.3, material: Material(diffuse: .white, lightingModel: .constant)))
    glass.position = opaque.position
    glass.opacity = 0.5
    root.addChildNode(opaque)
    root.addChildNode(glass)
    let image = Renderer(options: RenderOptions(threads: 1, background: .solid(.black)))
      .render(RenderList(root: root), camera: camera).image
    var red = 0
    var other = 0
    for v in 0..<48 {
      for u in 0..<64 {
        let p = image[u, v]
        if p.r == 255 && p.g == 0 && p.b == 0 {
          red += 1
        } else if p.r != 0 || p.g != 0 || p.b != 0 {
          other += 1
        }
      }
    }
    // π · (60 · 0.3 / 1.7)² ≈ 350 pixels of the sphere; none blended with the white copy.
    #expect(red > 300)
    #expect(other == 0)
  }

  @Test(
    "random scenes render alike on both paths (constant: exactly; lit: within one level)",
    arguments: [LightingModel.constant, .blinn])
  func randomScenes(model: LightingModel) {
    var random = SeededGenerator(seed: model == .constant ? 11 : 12)
    func uniform(_ range: ClosedRange<Double>) -> Double {
      range.lowerBound + Double(random.next() >> 11) / Double(1 << 53)
        * (range.upperBound - range.lowerBound)
    }
    var compared = 0
    for trial in 0..<150 {
      let width = 1 + Int(uniform(0...22))
      let height = 1 + Int(uniform(0...10))
      let scale = [1, 2, 3][trial % 3]
      let near = [0.001, 0.5, 1.0][(trial / 3) % 3]
      let camera = originCamera(
        width: width, height: height, focal: uniform(2...40), near: near)
      var spheres: [(Vector3, Double, Double)] = []
      for _ in 0..<(1 + Int(uniform(0...4.99))) {
        let position = Vector3(uniform(-2...2), uniform(-2...2), uniform(-5...1))
        let radius = uniform(0.05...2)
        spheres.append((position, radius, trial % 2 == 0 ? 1 : 0.5))
        // An opaque duplicate at the same place: ties and coincident surfaces.
        if uniform(0...1) < 0.5 { spheres.append((position, radius, 1)) }
      }
      func render(doublePath: Bool) -> Image {
        let root = Node()
        let light = Node()
        light.light = Light(kind: .directional)
        root.addChildNode(light)
        for (index, (position, radius, opacity)) in spheres.enumerated() {
          let color = Color(
            red: Double(index + 1) / 9, green: Double((index * 3) % 7) / 7,
            blue: Double(index % 2))
          let node = Node(
            geometry: .sphere(
              radius: radius,
              material: Material(
                diffuse: color, specular: .white, shininess: 7, lightingModel: model)))
          node.position = position
          node.opacity = opacity
          if doublePath { node.scale = Vector3(1, 1, 1 + 1e-9) }
          root.addChildNode(node)
        }
        let options = RenderOptions(
          threads: 1, supersampling: scale, background: .solid(.black))
        return Renderer(options: options).render(RenderList(root: root), camera: camera).image
      }
      let float = render(doublePath: false)
      let double = render(doublePath: true)
      let tolerance = model == .constant ? 0 : 1
      for i in float.pixels.indices {
        let delta = abs(Int(float.pixels[i]) - Int(double.pixels[i]))
        #expect(delta <= tolerance, "trial \(trial), byte \(i)")
      }
      compared += width * height
    }
    #expect(compared > 10_000)
  }
}
