import ARMath
import ARRender
import ARRenderCore
import ARScene
import Testing

/// Occlusion: a tilted environment wall crosses a virtual plane along a line; which one a pixel
/// shows is decided here from the exact depths of the two planes on the pixel's ray.
@Suite("Environment occlusion")
struct EnvironmentOcclusionTests {
  static let width = 80
  static let height = 60
  static let camera = Camera(
    intrinsics: CameraIntrinsics(fx: 60, fy: 60, cx: 39.5, cy: 29.5, width: width, height: height),
    worldFromCamera: .identity)

  /// The wall z = −2 − 0.4·x − 0.1·y over x, y ∈ [−3, 3], green, unlit.
  static func wallDepth(_ d: SIMD3<Double>) -> Double {
    // t·d on the plane: −t = −2 − 0.4·t·dx − 0.1·t·dy.
    2 / (1 - 0.4 * d.x - 0.1 * d.y)
  }

  static let wall: EnvironmentGeometry = {
    func corner(_ x: Double, _ y: Double) -> SIMD3<Double> { SIMD3(x, y, -2 - 0.4 * x - 0.1 * y) }
    let positions = [
      corner(-3, 3), corner(-3, -3), corner(3, -3), corner(-3, 3), corner(3, -3), corner(3, 3),
    ]
    guard
      let geometry = EnvironmentGeometry(
        positions: positions, uvs: [SIMD2<Double>](repeating: .zero, count: 6),
        materialIndices: [0, 0],
        materials: [EnvironmentMaterial(baseColor: Color(red: 0, green: 1, blue: 0))],
        occludes: true)
    else { preconditionFailure("two triangles with one material make a geometry") }
    return geometry
  }()

  static func list(occludes: Bool) -> RenderList {
    let root = Node()
    let screen = Node()
    screen.position = Vector3(0, 0, -2)
    screen.geometry = .plane(
      width: 2, height: 2,
      material: Material(diffuse: Color(red: 1, green: 0, blue: 0), lightingModel: .constant))
    root.addChildNode(screen)
    var list = RenderList(root: root)
    list.environment = EnvironmentGeometry(
      positions: wall.positions, uvs: wall.uvs, materialIndices: wall.materialIndices,
      materials: wall.materials, occludes: occludes)
    return list
  }

  static func direction(_ u: Double, _ v: Double) -> SIMD3<Double> {
    SIMD3((u - 39.5) / 60, -(v - 29.5) / 60, -1)
  }

  /// Whether pixel (u, v)'s ray meets the virtual square (z = −2, |x|, |y| ≤ 1).
  static func onScreen(_ d: SIMD3<Double>) -> Bool {
    abs(2 * d.x) <= 1 && abs(2 * d.y) <= 1
  }

  @Test(
    "occlusion true: the virtual plane shows only where it is nearer, within a pixel of the crossing"
  )
  func occluded() throws {
    let frame = Renderer(
      options: RenderOptions(threads: 2, background: .solid(.black), writesDepth: true)
    )
    .render(Self.list(occludes: true), camera: Self.camera)
    var virtualPixels = 0
    var hiddenPixels = 0
    for v in 1..<(Self.height - 1) {
      for u in 1..<(Self.width - 1) {
        let d = Self.direction(Double(u), Double(v))
        guard Self.onScreen(d), Self.onScreen(Self.direction(Double(u - 1), Double(v))),
          Self.onScreen(Self.direction(Double(u + 1), Double(v)))
        else { continue }
        let virtualNearer = 2 < Self.wallDepth(d)
        let pixel = frame.image[u, v]
        let showsVirtual = pixel.r == 255 && pixel.g == 0
        #expect(showsVirtual || (pixel.g == 255 && pixel.r == 0), "(\(u), \(v)) is \(pixel)")
        if showsVirtual != virtualNearer {
          // Only next to the exact crossing: a neighbour's ray decides the other way.
          let neighbours = [(-1, 0), (1, 0), (0, -1), (0, 1)].map {
            2 < Self.wallDepth(Self.direction(Double(u + $0.0), Double(v + $0.1)))
          }
          #expect(neighbours.contains(showsVirtual), "(\(u), \(v)) off the crossing")
        }
        if virtualNearer { virtualPixels += 1 } else { hiddenPixels += 1 }
        // The depth output is the visible surface's, the environment's included.
        let expected = DepthImage.millimetres(fromMetres: showsVirtual ? 2 : Self.wallDepth(d))
        let got = try #require(frame.depth).millimetres[v * Self.width + u]
        #expect(abs(Int(got) - Int(expected)) <= 1, "(\(u), \(v)) depth \(got) vs \(expected)")
      }
    }
    #expect(virtualPixels > 500 && hiddenPixels > 500)
  }

  @Test("occlusion false (the default): virtual content covers the environment wherever it is")
  func notOccluded() throws {
    let frame = Renderer(
      options: RenderOptions(threads: 1, background: .solid(.black), writesDepth: true)
    )
    .render(Self.list(occludes: false), camera: Self.camera)
    var environmentDepths = 0
    for v in 0..<Self.height {
      for u in 0..<Self.width {
        let d = Self.direction(Double(u), Double(v))
        let pixel = frame.image[u, v]
        if Self.onScreen(d) {
          #expect(pixel.r == 255 && pixel.g == 0, "(\(u), \(v)) is \(pixel)")
        } else {
          #expect(pixel.g == 255 && pixel.r == 0, "(\(u), \(v)) is \(pixel)")
          let got = try #require(frame.depth).millimetres[v * Self.width + u]
          #expect(got == DepthImage.millimetres(fromMetres: Self.wallDepth(d)))
          environmentDepths += 1
        }
      }
    }
    #expect(environmentDepths > 1000)
  }

  /// Whether pixel (u, v)'s ray meets the sphere of radius 0.5 at (0, 0, −3), and where: the
  /// near root of |t·d − c|² = r², from the quadratic in Double.
  static func sphereDepth(_ d: SIMD3<Double>) -> Double? {
    let c = SIMD3<Double>(0, 0, -3)
    let a = (d * d).sum()
    let b = (d * c).sum()
    let discriminant = b * b - a * ((c * c).sum() - 0.25)
    guard discriminant > 0 else { return nil }
    return (b - discriminant.squareRoot()) / a
  }

  @Test(
    "occlusion false: translucent content blends over the environment wherever it is, and stays hidden behind opaque content"
  )
  func translucentOverEnvironment() throws {
    // The wall at about 2 m (no occlusion), an opaque blue sphere at 3 m, a translucent red
    // plane at 4 m across the whole view: behind both.
    let root = Node()
    let sphere = Node(
      geometry: .sphere(
        radius: 0.5,
        material: Material(diffuse: Color(red: 0, green: 0, blue: 1), lightingModel: .constant)))
    sphere.position = Vector3(0, 0, -3)
    root.addChildNode(sphere)
    let veil = Node()
    veil.position = Vector3(0, 0, -4)
    veil.geometry = .plane(
      width: 8, height: 8,
      material: Material(
        diffuse: Color(red: 1, green: 0, blue: 0), lightingModel: .constant, transparency: 0.5))
    root.addChildNode(veil)
    var list = RenderList(root: root)
    let wall = Self.list(occludes: false).environment
    list.environment = wall
    for threads in [1, 2] {
      let frame = Renderer(
        options: RenderOptions(threads: threads, background: .solid(.black), writesDepth: true)
      )
      .render(list, camera: Self.camera)
      var spherePixels = 0
      var veiledPixels = 0
      for v in 1..<(Self.height - 1) {
        for u in 1..<(Self.width - 1) {
          // Away from the silhouette: the pixel and its four neighbours agree.
          let hits = [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)].map {
            Self.sphereDepth(Self.direction(Double(u + $0.0), Double(v + $0.1))) != nil
          }
          guard hits.allSatisfy({ $0 == hits[0] }) else { continue }
          let pixel = frame.image[u, v]
          let depth = try #require(frame.depth).millimetres[v * Self.width + u]
          let d = Self.direction(Double(u), Double(v))
          if let t = Self.sphereDepth(d) {
            // The veil is behind the sphere: the sphere's own colour and depth.
            #expect(pixel.r == 0 && pixel.g == 0 && pixel.b == 255, "(\(u), \(v)) is \(pixel)")
            let expected = DepthImage.millimetres(fromMetres: t)
            #expect(abs(Int(depth) - Int(expected)) <= 1, "(\(u), \(v)) depth \(depth)")
            spherePixels += 1
          } else {
            // Green wall · (1 − ½) + red · ½, each ⌊255 · ½ + ½⌋ = 128.
            #expect(
              abs(Int(pixel.r) - 128) <= 1 && abs(Int(pixel.g) - 128) <= 1 && pixel.b == 0,
              "(\(u), \(v)) is \(pixel)")
            #expect(depth == DepthImage.millimetres(fromMetres: Self.wallDepth(d)))
            veiledPixels += 1
          }
        }
      }
      #expect(spherePixels > 200 && veiledPixels > 2000)
    }
  }
}
