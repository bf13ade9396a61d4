import ARMath
import ARScene
import Testing

@testable import ARRasterizer
@testable import ARRender

/// The near-plane clip of uniform spheres (`UniformSphereRow.clip`, in lanes) against its
/// one-sample reference (`clipReference`): camera inside a sphere, or the sphere cut by the
/// near plane, opaque and translucent.
@Suite("Near-plane-cut spheres in lanes")
struct SphereClipTests {
  @Test("clip gives clipReference's depth bits lane by lane, for cut, inside and missed spheres")
  func clipMatchesReference() throws {
    let intrinsics = CameraIntrinsics(fx: 40, fy: 40, cx: 23.5, cy: 17.5, width: 48, height: 36)
    var random = SeededGenerator(seed: 2626)
    func uniform(_ range: ClosedRange<Double>) -> Double {
      range.lowerBound + Double(random.next() >> 11) / Double(1 << 53)
        * (range.upperBound - range.lowerBound)
    }
    var replaced = 0
    var kept = 0
    for trial in 0..<40 {
      let near = [0.001, 0.3, 0.6][trial % 3]
      let far = [100.0, 1.5][trial % 2]
      // Centre depth between 0 (camera inside) and just over the radius (near plane cuts).
      let radius = uniform(0.2...1)
      let centre = Vector3(
        uniform(-0.3...0.3), uniform(-0.3...0.3), -uniform(0...(radius + near)))
      let cameraFromNode = Matrix4(
        Vector4(1, 0, 0, 0), Vector4(0, 1, 0, 0), Vector4(0, 0, 1, 0),
        Vector4(centre.x, centre.y, centre.z, 1))
      let sphere = try #require(
        SpherePrimitive(
          radius: radius, cameraFromNode: cameraFromNode, intrinsics: intrinsics, near: near,
          far: far))
      #expect(sphere.inverseRadius > 0)
      let constants = UniformSphere(sphere, intrinsics: intrinsics, near: near, far: far)
      for scale in 1...3 {
        let grid = SampleGrid(
          scale: scale, columns: 48 * scale, firstRow: 0, rowCount: 36 * scale,
          rayX: UnsafeBufferPointer(start: nil, count: 0),
          rayY: UnsafeBufferPointer(start: nil, count: 0))
        for sy in stride(from: 0, to: 36 * scale, by: 3) {
          let row = UniformSphereRow(constants, v: grid.v(sy), dy: grid.rayY(sy))
          for sx in stride(from: 0, to: 48 * scale, by: laneCount) {
            // Lanes before the near plane (replaced), beyond it, +∞ and NaN (kept).
            var t = FloatLanes()
            for lane in 0..<laneCount {
              t[lane] =
                [Float(near * 0.5), 0, -1, Float(near) + 1, .infinity, .nan][
                  (lane + sx + sy) % 6]
            }
            var lanes = t
            var reference = t
            row.clip(&lanes, constants, sx: sx, grid: grid, primitive: sphere)
            row.clipReference(&reference, constants, sx: sx, grid: grid, primitive: sphere)
            for lane in 0..<laneCount {
              #expect(
                lanes[lane].bitPattern == reference[lane].bitPattern,
                "trial \(trial), N \(scale), sample (\(sx + lane), \(sy))")
              if t[lane] < Float(near), reference[lane] < .infinity { replaced += 1 }
              if !(t[lane] < Float(near)) { kept += 1 }
            }
          }
        }
      }
    }
    // The cut spheres' far sides are found for many samples.
    #expect(replaced > 10_000, "\(replaced) depths replaced, \(kept) kept")
  }

  @Test("inside an opaque constant-lit sphere every pixel is its colour, on every build")
  func insideOpaqueSphere() {
    let sets = [InstructionSet.baseline] + InstructionSetTests.vectorInstructionSets
    let root = Node()
    let sphere = Node(
      geometry: Geometry(
        .sphere(Sphere(radius: 0.7)),
        material: Material(
          diffuse: Color(red: 0.2, green: 0.4, blue: 0.6), lightingModel: .constant)))
    sphere.position = Vector3(0.1, -0.05, 0.2)
    root.addChildNode(sphere)
    let camera = originCamera(width: 40, height: 30, focal: 30, near: 0.05)
    for set in sets {
      for scale in 1...2 {
        let image = Renderer(
          options: RenderOptions(
            threads: 1, supersampling: scale, background: .solid(.black), instructionSet: set)
        ).render(RenderList(root: root), camera: camera).image
        // ⌊255 · c + ½⌋: 51, 102, 153 in every pixel (the far side, through `clip`).
        var expected: [UInt8] = []
        for _ in 0..<(40 * 30) { expected += [51, 102, 153, 255] }
        #expect(image.pixels == expected, "\(set), N \(scale)")
      }
    }
  }

  /// A random scene of spheres cut by the near plane or around the camera, opaque and
  /// translucent, uniform and non-uniform scale, over a plane, lit by one or two lights.
  static func scene(trial: Int, near: Double, random: inout SeededGenerator) -> (
    root: Node, spheres: [Node]
  ) {
    func uniform(_ range: ClosedRange<Double>) -> Double {
      range.lowerBound + Double(random.next() >> 11) / Double(1 << 53)
        * (range.upperBound - range.lowerBound)
    }
    let root = Node()
    for index in 0..<(1 + trial % 2) {
      let light = Node()
      light.light = Light(kind: .directional, intensity: uniform(0.5...1.2))
      light.eulerAngles = Vector3(uniform(-1.5...0), uniform(-1...1), Double(index))
      root.addChildNode(light)
    }
    root.addChildNode(randomSceneFloor())
    var spheres: [Node] = []
    for index in 0..<(3 + Int(uniform(0...4))) {
      let model: LightingModel = [.lambert, .blinn, .constant][index % 3]
      let material = Material(
        diffuse: Color(red: uniform(0...1), green: uniform(0...1), blue: uniform(0...1)),
        specular: Color(red: 1, green: 1, blue: 0.5), shininess: [1, 7, 2.5][index % 3],
        lightingModel: model)
      let radius = uniform(0.2...0.9)
      let node = Node(geometry: Geometry(.sphere(Sphere(radius: radius)), material: material))
      // Centre depth from 0 (camera inside) to just past the radius (cut by the near plane).
      node.position = Vector3(
        uniform(-0.4...0.4), uniform(-0.3...0.3), -uniform(0...(radius + near + 0.05)))
      node.eulerAngles = Vector3(uniform(-3...3), uniform(-3...3), uniform(-3...3))
      node.scale = index % 4 == 3 ? Vector3(1, 1.3, 0.8) : Vector3(1, 1, 1)
      // About half translucent; the rest opaque.
      if index % 2 == 1 { node.opacity = uniform(0.2...0.8) }
      root.addChildNode(node)
      spheres.append(node)
    }
    return (root, spheres)
  }

  @Test(
    "near-plane-cut spheres: every build's lanes give the reference paths' bytes, 1 and 3 threads")
  func cutSpheresMatchReference() {
    var random = SeededGenerator(seed: 2627)
    var changed = 0
    var pixels = 0
    for trial in 0..<18 {
      let near = [0.001, 0.3, 0.6][trial % 3]
      let (root, spheres) = Self.scene(trial: trial, near: near, random: &random)
      let camera = originCamera(width: 40 + 8 * (trial % 3), height: 32, focal: 36, near: near)
      // Content: the cut spheres change most pixels.
      let counts = expectLanesMatchReferencePaths(
        root, content: spheres, camera: camera, label: "trial \(trial)"
      ) { set, threads in
        RenderOptions(
          threads: threads, supersampling: 1 + trial % 3, background: .solid(.black),
          instructionSet: set)
      }
      changed += counts.changed
      pixels += counts.pixels
    }
    #expect(changed > pixels / 2, "\(changed) of \(pixels) pixels changed by the spheres")
  }
}
