import ARMath
import ARScene
import Testing

@testable import ARRender

/// Every sample's value depends only on its own (u, v) (Documentation/Rendering.md), so an image
/// a few pixels wide must equal the left columns of a wider one with the same intrinsics. Narrow
/// images end every row in a partial group of eight, whose extra lanes the kernels compute and
/// write back unchanged: a lane leaking into its neighbours would show here. (From a review
/// probe.)
@Suite struct NarrowImageTests {
  static func scene(_ kind: Int) -> Node {
    let root = Node()
    let light = Node()
    light.light = Light(kind: .directional)
    light.eulerAngles = Vector3(-0.7, 0.3, 0)
    root.addChildNode(light)
    func add(
      _ shape: Shape, _ m: Material, _ p: Vector3, opacity: Double = 1, scale: Vector3 = .one
    ) {
      let n = Node(geometry: Geometry(shape, material: m))
      n.position = p
      n.scale = scale
      n.opacity = opacity
      n.eulerAngles = Vector3(0.3, 0.2, 0.1)
      root.addChildNode(n)
    }
    let lit = Material(
      diffuse: Color(red: 0.8, green: 0.4, blue: 0.2), specular: .white, shininess: 7,
      lightingModel: .blinn)
    let flat = Material(
      diffuse: Color(red: 0.1, green: 0.9, blue: 0.3), lightingModel: .constant, isDoubleSided: true
    )
    let tex = Material(
      diffuse: .white,
      diffuseTexture: Texture(
        width: 2, height: 2, pixels: [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 9, 9, 9, 255]),
      lightingModel: .lambert, isDoubleSided: true)
    switch kind {
    case 0:  // sphere in front filling the view, translucent flat plane in front
      add(.sphere(Sphere(radius: 0.5)), lit, Vector3(0.05, -0.02, -1.5))
      add(.plane(Plane(width: 3, height: 3)), flat, Vector3(0, 0, -1.0), opacity: 0.5)
    case 1:  // camera inside sphere; near plane crossing sphere
      add(.sphere(Sphere(radius: 2)), lit, Vector3(0.1, 0, -0.3))
      add(.sphere(Sphere(radius: 0.3)), lit, Vector3(0.0, 0, -0.2))
      add(.plane(Plane(width: 3, height: 3)), flat, Vector3(0, 0, -0.5), opacity: 0.4)
    case 2:  // camera exactly on sphere surface, sphere behind, textured plane, box
      add(.sphere(Sphere(radius: 1)), lit, Vector3(0, 0, -1))
      add(.sphere(Sphere(radius: 0.5)), lit, Vector3(0, 0, 2))
      add(.plane(Plane(width: 2, height: 2)), tex, Vector3(0.2, 0, -0.8))
      add(.box(Box(width: 0.4, height: 0.4, length: 0.4)), lit, Vector3(-0.2, 0.1, -0.9))
    default:  // many small spheres, translucent spheres and planes, non-uniform sphere
      for i in 0..<12 {
        let x = Double(i % 4) * 0.3 - 0.45
        let y = Double(i / 4) * 0.3 - 0.3
        add(
          .sphere(Sphere(radius: 0.12)), lit, Vector3(x, y, -2 - Double(i) * 0.01),
          opacity: i % 3 == 0 ? 0.5 : 1)
      }
      add(.sphere(Sphere(radius: 0.3)), lit, Vector3(0, 0, -1.7), scale: Vector3(1, 1.4, 0.7))
      add(.plane(Plane(width: 0.7, height: 0.9)), flat, Vector3(0.1, 0, -1.2), opacity: 0.6)
    }
    return root
  }

  @Test("a 1…9 px wide image equals the left columns of a 24 px wide one, every build and N")
  func narrowEqualsCrop() {
    var compared = 0
    var mismatches = 0
    for kind in 0..<4 {
      let list = RenderList(root: Self.scene(kind))
      for height in [1, 3, 5] {
        for scale in [1, 2, 3, 4, 7, 16] {
          func camera(width: Int) -> Camera {
            Camera(
              intrinsics: CameraIntrinsics(
                fx: 4, fy: 4, cx: 1.7, cy: Double(height - 1) / 2, width: width, height: height),
              worldFromCamera: .identity, near: kind == 1 ? 0.25 : 0.001)
          }
          for set in [InstructionSet.baseline, .avx2, .avx512] {
            let options = RenderOptions(
              threads: 1, supersampling: scale,
              background: .verticalGradient(top: .white, bottom: .black), writesDepth: true,
              instructionSet: set)
            let wide = Renderer(options: options).render(list, camera: camera(width: 24))
            for width in 1...9 {
              let narrow = Renderer(options: options).render(list, camera: camera(width: width))
              for y in 0..<height {
                for x in 0..<width {
                  let i = y * width + x
                  let j = y * 24 + x
                  compared += 1
                  if narrow.image.pixels[(4 * i)..<(4 * i + 4)]
                    != wide.image.pixels[(4 * j)..<(4 * j + 4)]
                    || narrow.depthMetres[i].bitPattern != wide.depthMetres[j].bitPattern
                  {
                    mismatches += 1
                    if mismatches <= 5 {
                      Issue.record(
                        "scene \(kind), \(width)×\(height), N \(scale), \(set): pixel (\(x), \(y))")
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    #expect(mismatches == 0)
    #expect(compared > 10_000)
  }
}
