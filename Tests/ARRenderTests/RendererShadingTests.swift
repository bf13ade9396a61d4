import ARMath
import ARScene
import Testing

@testable import ARRasterizer
@testable import ARRender

@Suite("Renderer shading")
struct RendererShadingTests {
  /// A 101×81 camera whose pixel (50, 40) looks straight down −Z.
  let camera = originCamera(width: 101, height: 81, focal: 100, cx: 50, cy: 40)

  /// A directional light travelling along (0, sin 60°, −cos 60°): towards the light is
  /// L = (0, −sin 60°, cos 60°), so N·L = 0.5 for N = +Z; plus ambient 0.2.
  func lights() -> [Node] {
    let directional = Node()
    directional.light = Light(kind: .directional)
    directional.orientation = Quaternion(axis: .unitX, angleRadians: Double.pi / 3)
    let ambient = Node()
    ambient.light = Light(kind: .ambient, color: Color(red: 0.2, green: 0.2, blue: 0.2))
    return [directional, ambient]
  }

  @Test("lambert on a plane facing the camera: diffuse · (ambient + N·L)")
  func lambertPlane() {
    let root = Node()
    for light in lights() { root.addChildNode(light) }
    let material = Material(
      diffuse: Color(red: 0.8, green: 0.6, blue: 0.4), lightingModel: .lambert)
    let plane = Node(geometry: .plane(width: 4, height: 4, material: material))
    plane.position = Vector3(0, 0, -2)
    root.addChildNode(plane)
    let image = Renderer(options: RenderOptions(threads: 1)).render(
      RenderList(root: root), camera: camera
    ).image
    // (0.8, 0.6, 0.4) · (0.2 + 0.5) = (0.56, 0.42, 0.28) → (142.8, 107.1, 71.4).
    let pixel = image[50, 40]
    #expect(pixel.r == 143 && pixel.g == 107 && pixel.b == 71 && pixel.a == 255)
  }

  @Test("blinn on a sphere: lambert + specular · (N·H)^shininess")
  func blinnSphere() {
    let root = Node()
    for light in lights() { root.addChildNode(light) }
    let material = Material(
      diffuse: Color(red: 0.8, green: 0.6, blue: 0.4),
      specular: Color(red: 0.4, green: 0.4, blue: 0.4), shininess: 4, lightingModel: .blinn)
    let sphere = Node(geometry: .sphere(radius: 0.5, material: material))
    sphere.position = Vector3(0, 0, -2)
    root.addChildNode(sphere)
    let image = Renderer(options: RenderOptions(threads: 1)).render(
      RenderList(root: root), camera: camera
    ).image
    // At the sphere's front pole N = V = +Z. H = normalize(L + V) = normalize(0, −0.866, 1.5),
    // N·H = 1.5/√3 = 0.8660; ^4 = 0.5625; · 0.4 = 0.225.
    // (0.56, 0.42, 0.28) + 0.225 = (0.785, 0.645, 0.505) → (200.2, 164.5, 128.8).
    let pixel = image[50, 40]
    #expect(abs(Int(pixel.r) - 200) <= 1)
    #expect(abs(Int(pixel.g) - 164) <= 1)
    #expect(abs(Int(pixel.b) - 129) <= 1)
  }

  @Test("a textured plane samples bilinearly, upright seen from +Z")
  func bilinearTexture() throws {
    // 2×2 texture: top row red, green; bottom row blue, white.
    let texture = try #require(
      Texture(
        width: 2, height: 2,
        pixels: [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]))
    let material = Material(diffuseTexture: texture, lightingModel: .constant)
    let plane = Node(geometry: .plane(width: 2, height: 2, material: material))
    plane.position = Vector3(0, 0, -2)
    let camera = originCamera(width: 101, height: 101, focal: 100, cx: 50, cy: 50)
    let image = Renderer(options: RenderOptions(threads: 1)).render(
      RenderList(root: plane), camera: camera
    ).image
    // Pixel (40, 30): local x = −0.2, y = 0.4 → uv = (0.4, 0.3) → texel (0.3, 0.1):
    // 0.9·(0.7 red + 0.3 green) + 0.1·(0.7 blue + 0.3 white) = (168.3, 76.5, 25.5).
    let pixel = image[40, 30]
    #expect(abs(Int(pixel.r) - 168) <= 1)
    #expect(abs(Int(pixel.g) - 77) <= 1)
    #expect(abs(Int(pixel.b) - 26) <= 1)
  }

  @Test("a tilted textured plane interpolates uv perspective-correctly")
  func perspectiveCorrectTexture() throws {
    // Texture 2×1: black | white; with clamp the sample is 0 for uv.x ≤ 0.25 and 1 for ≥ 0.75,
    // linear between: value = uv.x·2 − 0.5 on (0.25, 0.75).
    let texture = try #require(
      Texture(width: 2, height: 1, pixels: [0, 0, 0, 255, 255, 255, 255, 255]))
    let material = Material(
      diffuseTexture: texture, lightingModel: .constant, isDoubleSided: true)
    let plane = Node(geometry: .plane(width: 2, height: 2, material: material))
    plane.position = Vector3(0, 0, -3)
    plane.orientation = Quaternion(axis: .unitY, angleRadians: 1.0)
    let camera = originCamera(width: 101, height: 101, focal: 100, cx: 50, cy: 50)
    let image = Renderer(options: RenderOptions(threads: 1)).render(
      RenderList(root: plane), camera: camera
    ).image
    // Independent ray–plane intersection at a few pixels on row 50.
    let normal = plane.orientation.act(Vector3(0, 0, 1))
    let xAxis = plane.orientation.act(Vector3(1, 0, 0))
    var checked = 0
    for u in stride(from: 40, through: 60, by: 4) {
      let d = pixelDirection(camera, u: Double(u), v: 50)
      let t = normal.dot(plane.position) / normal.dot(d)
      let localX = (d * t - plane.position).dot(xAxis)
      let uvX = localX / 2 + 0.5
      let expected = min(1, max(0, uvX * 2 - 0.5)) * 255
      #expect(abs(Double(image[u, 50].r) - expected) <= 1, "pixel \(u)")
      checked += 1
    }
    #expect(checked == 6)
  }

  @Test("a transparent plane blends over an opaque one behind it")
  func transparencyBlends() {
    let root = Node()
    let back = Node(
      geometry: .plane(
        width: 4, height: 4,
        material: Material(diffuse: Color(red: 0, green: 0, blue: 1), lightingModel: .constant)))
    back.position = Vector3(0, 0, -3)
    let front = Node(
      geometry: .plane(
        width: 4, height: 4,
        material: Material(diffuse: Color(red: 1, green: 0, blue: 0), lightingModel: .constant)))
    front.position = Vector3(0, 0, -2)
    front.opacity = 0.5
    // Added front first: the transparent one still draws after the opaque one.
    root.addChildNode(front)
    root.addChildNode(back)
    let image = Renderer(options: RenderOptions(threads: 1)).render(
      RenderList(root: root), camera: camera
    ).image
    let pixel = image[50, 40]
    // 0.5 · red + 0.5 · blue = (127.5, 0, 127.5).
    #expect(abs(Int(pixel.r) - 128) <= 1 && pixel.g == 0 && abs(Int(pixel.b) - 128) <= 1)
  }

  @Test("vertical gradient background: top colour at the top edge, bottom at the bottom")
  func gradientBackground() {
    let options = RenderOptions(
      threads: 1, background: .verticalGradient(top: .black, bottom: .white))
    let camera = originCamera(width: 4, height: 100, focal: 100)
    let image = Renderer(options: options).render(RenderList(root: Node()), camera: camera).image
    // Row v: s = (v + 0.5)/100 → rows 0 and 99 give 1.275 and 253.7.
    #expect(image[0, 0].r == 1)
    #expect(image[3, 99].r == 254)
    #expect(image[0, 49].g == 126)  // 0.495 · 255 = 126.2
  }
}
