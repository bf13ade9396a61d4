import ARMath
import ARRenderCore
import ARScene
import Testing

@testable import ARRasterizer
@testable import ARRender

/// The environment's Float lanes (`EnvironmentRunSampler`) against the scalar Double path
/// (`PreparedFrame.environmentColor`, the formula as Documentation/Environments.md states it),
/// pixel by pixel, for every wrap mode, on a floor seen from close up to the horizon (every
/// mip level, magnified to minified) with texture coordinates far outside 0…1.
@Suite struct EnvironmentFloatLaneTests {
  /// A 48 × 20 texture of hard-edged stripes and a gradient (not smooth: a wrong tap or
  /// level shows).
  static func texture() -> Texture? {
    var texels: [UInt8] = []
    for y in 0..<20 {
      for x in 0..<48 {
        texels += [(x / 3) % 2 == 0 ? 240 : 30, UInt8(5 * x), UInt8(12 * y), 255]
      }
    }
    return Texture(width: 48, height: 20, pixels: texels)
  }

  /// A 40 × 40 m floor 1 m below the camera, uv −7…9 across it, two triangles.
  static func floor(_ wrap: TextureWrap, _ texture: Texture) -> EnvironmentGeometry? {
    let corners: [(SIMD3<Double>, SIMD2<Double>)] = [
      (SIMD3(-20, -1, 1), SIMD2(-7, 9)), (SIMD3(20, -1, 1), SIMD2(9, 9)),
      (SIMD3(20, -1, -39), SIMD2(9, -7)), (SIMD3(-20, -1, -39), SIMD2(-7, -7)),
    ]
    let order = [0, 1, 2, 0, 2, 3]
    return EnvironmentGeometry(
      positions: order.map { corners[$0].0 }, uvs: order.map { corners[$0].1 },
      materialIndices: [0, 0],
      materials: [
        EnvironmentMaterial(
          baseColor: Color(red: 0.9, green: 1, blue: 0.7),
          texture: MipmappedTexture(texture, wrapU: wrap, wrapV: wrap))
      ])
  }

  @Test(
    "Float lanes are within one level of the Double formula for every wrap mode",
    arguments: TextureWrap.allCases)
  func withinOneLevel(_ wrap: TextureWrap) throws {
    let texture = try #require(Self.texture())
    let environment = try #require(Self.floor(wrap, texture))
    // Tilted down and turned, so rows cross the floor's uv axes obliquely.
    var camera = originCamera(width: 80, height: 60, focal: 70)
    let pose = Node()
    pose.eulerAngles = Vector3(-0.35, 0.4, 0.1)
    camera.worldFromCamera = RigidTransform(matrix: pose.transform)
    var list = RenderList(root: Node())
    list.environment = environment
    // Every build this machine runs gives the same bytes (the lanes' width changes no bit).
    var sets: [InstructionSet] = [.baseline]
    sets += [.avx2, .avx512].filter {
      Renderer(options: RenderOptions(instructionSet: $0)).instructionSet == $0
    }
    let images = sets.map { set in
      Renderer(
        options: RenderOptions(threads: 1, background: .solid(.black), instructionSet: set)
      ).render(list, camera: camera).image
    }
    let image = images[0]
    for (set, other) in zip(sets, images).dropFirst() { #expect(other == image, "\(wrap), \(set)") }
    let frame = PreparedFrame(list, camera: camera)
    var differing = 0
    var checked = 0
    for v in 0..<60 {
      for u in 0..<80 {
        let covering = frame.triangles.indices.filter {
          frame.triangles[$0].outline.covers(u: Double(u), v: Double(v))
        }
        // Above the horizon: background; on the diagonal both triangles claim it.
        guard covering.count == 1, let index = covering.first else { continue }
        let expected = SIMD3<Float>(
          frame.shade(id: Int32(index), sphereCount: 0, u: Double(u), v: Double(v), depth: 1))
        let pixel = image[u, v]
        let got = SIMD3(Int(pixel.r), Int(pixel.g), Int(pixel.b))
        let want = SIMD3(
          Int((expected.x * 255).rounded()), Int((expected.y * 255).rounded()),
          Int((expected.z * 255).rounded()))
        let worst = max(abs(got.x - want.x), abs(got.y - want.y), abs(got.z - want.z))
        #expect(worst <= 1, "\(wrap) (\(u), \(v)): \(got) vs \(want)")
        if worst > 0 { differing += 1 }
        checked += 1
      }
    }
    // Most of the image is floor; Float and Double round differently on some pixels only.
    #expect(checked > 2500)
    #expect(differing < checked / 10, "\(differing) of \(checked) differ")
  }
}
