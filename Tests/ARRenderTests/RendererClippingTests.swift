import ARMath
import ARScene
import Testing

@testable import ARRasterizer
@testable import ARRender

@Suite("Renderer clipping and robustness")
struct RendererClippingTests {
  @Test("a sphere straddling the near plane covers the pixels whose ray hits it beyond near")
  func sphereStraddlingNearPlane() {
    let camera = originCamera(width: 80, height: 60, focal: 40, near: 1)
    let centre = Vector3(0.2, 0.1, -1.1)
    let radius = 0.5
    let node = Node(geometry: .sphere(radius: radius, material: unlitWhite))
    node.position = centre
    let covered = coverage(node, camera: camera)
    func hitsBeyondNear(_ u: Double, _ v: Double) -> Bool {
      let d = pixelDirection(camera, u: u, v: v)
      let b = d.dot(centre)
      let disc = b * b - d.lengthSquared * (centre.lengthSquared - radius * radius)
      guard disc > 0 else { return false }
      let far = (b + disc.squareRoot()) / d.lengthSquared
      return far >= 1
    }
    var mismatches = 0
    var hits = 0
    for v in 0..<60 {
      for u in 0..<80 where isUnambiguous(u: Double(u), v: Double(v), hitsBeyondNear) {
        if hitsBeyondNear(Double(u), Double(v)) { hits += 1 }
        if covered[v * 80 + u] != hitsBeyondNear(Double(u), Double(v)) { mismatches += 1 }
      }
    }
    #expect(mismatches == 0)
    #expect(hits > 100)
  }

  @Test("a box with a corner behind the camera covers exactly its clipped projection")
  func boxCornerBehindCamera() {
    let camera = originCamera(width: 80, height: 60, focal: 40, near: 0.05)
    let node = Node(geometry: .box(width: 1, height: 0.8, length: 1.2, material: unlitWhite))
    node.position = Vector3(0.9, 0.3, -0.5)
    node.eulerAngles = Vector3(0.3, 0.6, 0.2)
    let covered = coverage(node, camera: camera)
    // Independent: slab test in the box frame; single-sided faces are visible where the ray
    // enters the box at depth ≥ near.
    let nodeFromCamera = node.transform.inverse ?? .identity
    let origin = nodeFromCamera.transformPoint(.zero)
    let half = [0.5, 0.4, 0.6]
    func visible(_ u: Double, _ v: Double) -> Bool {
      let d = nodeFromCamera.transformDirection(pixelDirection(camera, u: u, v: v))
      let o = [origin.x, origin.y, origin.z]
      let dd = [d.x, d.y, d.z]
      var enter = -Double.infinity
      var exit = Double.infinity
      for axis in 0..<3 {
        let t1 = (-half[axis] - o[axis]) / dd[axis]
        let t2 = (half[axis] - o[axis]) / dd[axis]
        enter = max(enter, min(t1, t2))
        exit = min(exit, max(t1, t2))
      }
      return enter <= exit && enter >= 0.05
    }
    var mismatches = 0
    var hits = 0
    for v in 0..<60 {
      for u in 0..<80 where isUnambiguous(u: Double(u), v: Double(v), visible) {
        if visible(Double(u), Double(v)) { hits += 1 }
        if covered[v * 80 + u] != visible(Double(u), Double(v)) { mismatches += 1 }
      }
    }
    // The camera sees the box from outside and one corner is behind the camera plane.
    #expect(origin.x.magnitude > 0.5 || origin.y.magnitude > 0.4 || origin.z.magnitude > 0.6)
    let corners = [-1.0, 1].flatMap { x in
      [-1.0, 1].flatMap { y in
        [-1.0, 1].map { z in node.transform.transformPoint(Vector3(x * 0.5, y * 0.4, z * 0.6)) }
      }
    }
    #expect(corners.contains { $0.z > 0 })
    #expect(mismatches == 0)
    #expect(hits > 300)
  }

  @Test("NaN transforms, zero sizes and geometry behind the camera draw nothing")
  func degenerateInputsDrawNothing() {
    let root = Node()
    let nan = Node(geometry: .sphere(radius: 1, material: unlitWhite))
    nan.position = Vector3(.nan, 0, -2)
    let nanBox = Node(geometry: .box(width: 1, height: 1, length: 1, material: unlitWhite))
    nanBox.scale = Vector3(1, .infinity, 1)
    let zeroSphere = Node(geometry: .sphere(radius: 0, material: unlitWhite))
    zeroSphere.position = Vector3(0, 0, -2)
    let zeroScale = Node(geometry: .sphere(radius: 1, material: unlitWhite))
    zeroScale.position = Vector3(0, 0, -2)
    zeroScale.scale = .zero
    let flatBox = Node(geometry: .box(width: 0, height: 0, length: 0, material: unlitWhite))
    flatBox.position = Vector3(0, 0, -2)
    let behind = Node(geometry: .box(width: 1, height: 1, length: 1, material: unlitWhite))
    behind.position = Vector3(0, 0, 3)
    let behindSphere = Node(geometry: .sphere(radius: 1, material: unlitWhite))
    behindSphere.position = Vector3(0, 0, 3)
    for node in [nan, nanBox, zeroSphere, zeroScale, flatBox, behind, behindSphere] {
      root.addChildNode(node)
    }
    let camera = originCamera(width: 40, height: 30, focal: 30)
    #expect(!coverage(root, camera: camera).contains(true))
    let empty = originCamera(width: 0, height: 0, focal: 30)
    #expect(
      Renderer(options: RenderOptions()).render(RenderList(root: root), camera: empty)
        .image.pixels.isEmpty)
  }

  @Test("the bytes are identical for 1, 2 and 8 threads")
  func deterministicAcrossThreads() throws {
    var random = SeededGenerator(seed: 7)
    let root = Node()
    let stroke = Material(
      diffuse: .systemBlue, specular: Color(red: 0.5, green: 0.5, blue: 0.5), shininess: 20)
    for _ in 0..<60 {
      let node = Node(geometry: .sphere(radius: 0.05, material: stroke))
      node.position = Vector3(
        Double.random(in: -0.6...0.6, using: &random),
        Double.random(in: -0.4...0.4, using: &random),
        Double.random(in: -2.5 ... -1.5, using: &random))
      root.addChildNode(node)
    }
    let box = Node(geometry: .box(width: 0.5, height: 0.5, length: 0.5))
    box.position = Vector3(0.2, 0, -2)
    box.eulerAngles = Vector3(0.4, 0.5, 0)
    let glass = Node(
      geometry: .plane(width: 1, height: 1, material: Material(transparency: 0.4)))
    glass.position = Vector3(-0.2, 0.1, -1.2)
    root.addChildNode(box)
    root.addChildNode(glass)
    let camera = originCamera(width: 97, height: 61, focal: 80)
    let list = RenderList(root: root)
    var frames: [RenderedFrame] = []
    for threads in [1, 2, 8] {
      let options = RenderOptions(threads: threads, supersampling: 2, writesDepth: true)
      frames.append(Renderer(options: options).render(list, camera: camera))
    }
    #expect(frames[0].image == frames[1].image)
    #expect(frames[0].image == frames[2].image)
    #expect(frames[0].depth == frames[1].depth)
    #expect(frames[0].depth == frames[2].depth)
    let depth = try #require(frames[0].depth)
    #expect(depth.millimetres.contains { $0 > 0 })
  }
}
