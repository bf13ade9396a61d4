import ARMath
import ARRender
import ARScene
import ARSimTesting
import Testing

/// Small scenes that pin the renderer's look: each golden was inspected by eye when recorded
/// (see Documentation/Goldens.md). Exact tolerance: the renderer is deterministic.
@Suite struct PrimitiveGoldenTests {
  /// A camera at `position` looking at the origin, 128×128, 60° horizontal field of view.
  static func camera(at position: Vector3, size: Int = 128) -> Camera {
    let f = Double(size) / 2 / 0.5773502691896258
    let c = Double(size - 1) / 2
    let view = Matrix4.lookAtRH(eye: position, center: .zero, up: .unitY)
    let worldFromCamera = RigidTransform(matrix: view.inverse ?? .identity)
    return Camera(
      intrinsics: CameraIntrinsics(fx: f, fy: f, cx: c, cy: c, width: size, height: size),
      worldFromCamera: worldFromCamera)
  }

  static func render(_ root: Node, _ camera: Camera, supersampling: Int = 2) -> Image {
    let options = RenderOptions(
      threads: 2, supersampling: supersampling,
      background: .verticalGradient(
        top: Color(red: 0.85, green: 0.88, blue: 0.92),
        bottom: Color(red: 0.45, green: 0.47, blue: 0.5)))
    return Renderer(options: options).render(RenderList(root: root), camera: camera).image
  }

  @Test("a blinn sphere under the default lights (straight-down key light + ambient 0.3)")
  func sphere() {
    let root = Node()
    let material = Material(
      diffuse: .systemBlue, specular: Color(red: 0.5, green: 0.5, blue: 0.5), shininess: 20)
    root.addChildNode(Node(geometry: .sphere(radius: 0.5, material: material)))
    assertGolden(Self.render(root, Self.camera(at: Vector3(0, 0.6, 2))), named: "sphere")
  }

  @Test("an ellipsoid: a sphere with non-uniform scale, seen off-axis")
  func ellipsoid() {
    let root = Node()
    let node = Node(
      geometry: .sphere(
        radius: 0.4, material: Material(diffuse: Color(red: 0.9, green: 0.5, blue: 0.1))))
    node.scale = Vector3(1.6, 0.6, 1)
    node.eulerAngles = Vector3(0, 0, 0.5)
    node.position = Vector3(0.3, 0, 0)
    root.addChildNode(node)
    assertGolden(Self.render(root, Self.camera(at: Vector3(0.8, 0.4, 2))), named: "ellipsoid")
  }

  @Test("a lambert box turned 30° about Y and tilted 20° about X")
  func box() {
    let root = Node()
    let node = Node(
      geometry: .box(
        width: 0.8, height: 0.5, length: 0.6,
        material: Material(diffuse: Color(red: 0.8, green: 0.3, blue: 0.3), lightingModel: .lambert)
      ))
    node.eulerAngles = Vector3(0.35, 0.52, 0)
    root.addChildNode(node)
    assertGolden(Self.render(root, Self.camera(at: Vector3(0, 0.5, 2.2))), named: "box")
  }

  @Test("a textured plane reads upright and unmirrored from +Z (red top-left, blue bottom)")
  func texturedPlane() throws {
    // 4×4 texture: top-left red, top-right green, bottom row blue, the rest white.
    var pixels: [UInt8] = []
    for v in 0..<4 {
      for u in 0..<4 {
        switch (u, v) {
        case (0, 0): pixels += [255, 0, 0, 255]
        case (3, 0): pixels += [0, 200, 0, 255]
        case (_, 3): pixels += [0, 0, 255, 255]
        default: pixels += [255, 255, 255, 255]
        }
      }
    }
    let texture = try #require(Texture(width: 4, height: 4, pixels: pixels))
    let root = Node()
    let node = Node(
      geometry: .plane(
        width: 1.2, height: 0.9,
        material: Material(diffuseTexture: texture, lightingModel: .constant)))
    node.eulerAngles = Vector3(0, 0.3, 0)
    root.addChildNode(node)
    assertGolden(Self.render(root, Self.camera(at: Vector3(0, 0, 2))), named: "textured-plane")
  }

  @Test("look-at: an 'F' of spheres under a gimbal-locked root faces an off-axis camera")
  func lookAt() {
    let world = Node()
    let pointOfView = Node()
    let camera = Self.camera(at: Vector3(1.2, 0.8, 1.6))
    pointOfView.position = camera.worldFromCamera.translation
    world.addChildNode(pointOfView)
    let root = Node()
    root.scale = Vector3(1.25, 1.25, 1.25)
    root.constraints = [.lookAt(LookAtConstraint(target: pointOfView, isGimbalLockEnabled: true))]
    world.addChildNode(root)
    // Helper points (view points from centre, y down) drawing an 'F', placed as the app does.
    var points: [(Double, Double)] = []
    for i in 0...8 { points.append((-100, -200 + Double(i) * 50)) }  // stem
    for i in 1...4 { points.append((-100 + Double(i) * 50, -200)) }  // top bar
    for i in 1...3 { points.append((-100 + Double(i) * 50, 0)) }  // middle bar
    let material = Material(
      diffuse: .systemBlue, specular: Color(red: 0.35, green: 0.35, blue: 0.35), shininess: 24)
    for (x, y) in points {
      let sphere = Node(geometry: .sphere(radius: 0.015 * 2, material: material))
      sphere.position = Vector3(-x / 1000, -y / 1000, 0)
      root.addChildNode(sphere)
    }
    world.evaluateConstraints(pointOfView: pointOfView)
    assertGolden(Self.render(world, camera), named: "look-at-F")
  }

  @Test("lighting models side by side: constant, lambert, blinn (white specular)")
  func lighting() {
    let root = Node()
    let models: [(LightingModel, Double)] = [(.constant, -0.7), (.lambert, 0), (.blinn, 0.7)]
    for (model, x) in models {
      let node = Node(
        geometry: .sphere(
          radius: 0.3,
          material: Material(
            diffuse: Color(red: 0.2, green: 0.6, blue: 0.3), specular: .white, shininess: 30,
            lightingModel: model)))
      node.position = Vector3(x, 0, 0)
      root.addChildNode(node)
    }
    let key = Node()
    key.light = Light(kind: .directional)
    key.eulerAngles = Vector3(-0.8, 0.6, 0)
    root.addChildNode(key)
    let ambient = Node()
    ambient.light = Light(kind: .ambient, intensity: 0.2)
    root.addChildNode(ambient)
    assertGolden(Self.render(root, Self.camera(at: Vector3(0, 0.3, 2.2))), named: "lighting")
  }

  @Test("transparency: a half-transparent plane in front of a sphere")
  func transparency() {
    let root = Node()
    root.addChildNode(
      Node(
        geometry: .sphere(
          radius: 0.35, material: Material(diffuse: Color(red: 1, green: 0.8, blue: 0)))))
    let plane = Node(
      geometry: .plane(
        width: 0.8, height: 0.8,
        material: Material(
          diffuse: Color(red: 0.1, green: 0.3, blue: 0.9), lightingModel: .constant,
          transparency: 0.5)))
    plane.position = Vector3(0.25, 0.1, 0.5)
    root.addChildNode(plane)
    assertGolden(Self.render(root, Self.camera(at: Vector3(0, 0, 2))), named: "transparency")
  }
}
