import ARMath
import Foundation
import ARRender
import ARRenderCore
import ARScene
import Testing

/// The environment's pixels against a ray-cast written here: Möller–Trumbore intersections,
/// barycentric texture coordinates, a mip chain and trilinear filter of its own, footprints
/// from the neighbouring pixels' rays (finite differences, not the rasterizer's analytic
/// derivatives).
@Suite("Environment rendering")
struct EnvironmentRenderTests {
  static let width = 96
  static let height = 72

  static let camera = Camera(
    intrinsics: CameraIntrinsics(fx: 80, fy: 80, cx: 47.5, cy: 35.5, width: width, height: height),
    worldFromCamera: .identity)

  /// A smooth 64 × 64 texture (sinusoids of a few periods), so that the level choice moves a
  /// pixel by less than a level where the two footprints disagree slightly.
  static let texture: Texture = {
    var pixels: [UInt8] = []
    for y in 0..<64 {
      for x in 0..<64 {
        let u = Double(x) / 64
        let v = Double(y) / 64
        let r = 128 + 100 * sin(2 * .pi * u)
        let g = 128 + 100 * cos(2 * .pi * 2 * v)
        let b = 128 + 60 * sin(2 * .pi * (u + v))
        pixels += [UInt8(r.rounded()), UInt8(g.rounded()), UInt8(b.rounded()), 255]
      }
    }
    guard let texture = Texture(width: 64, height: 64, pixels: pixels) else {
      preconditionFailure("64 × 64 RGBA texels make a texture")
    }
    return texture
  }()

  /// A box's triangles (the primitive convention: quads TL, BL, BR, TR, uv (0,0) at TL) under
  /// `world`.
  static func box(size: Double, world: Matrix4) -> (
    positions: [SIMD3<Double>], uvs: [SIMD2<Double>]
  ) {
    let h = size / 2
    var positions: [SIMD3<Double>] = []
    var uvs: [SIMD2<Double>] = []
    func quad(_ c: SIMD3<Double>, _ r: SIMD3<Double>, _ u: SIMD3<Double>) {
      let corners = [
        (c - r + u, SIMD2(0.0, 0)), (c - r - u, SIMD2(0, 1)), (c + r - u, SIMD2(1, 1)),
        (c + r + u, SIMD2(1, 0)),
      ]
      for k in [0, 1, 2, 0, 2, 3] {
        let p = world.transformPoint(Vector3(corners[k].0.x, corners[k].0.y, corners[k].0.z))
        positions.append(SIMD3(p.x, p.y, p.z))
        uvs.append(corners[k].1)
      }
    }
    quad(SIMD3(0, 0, h), SIMD3(h, 0, 0), SIMD3(0, h, 0))
    quad(SIMD3(0, 0, -h), SIMD3(-h, 0, 0), SIMD3(0, h, 0))
    quad(SIMD3(h, 0, 0), SIMD3(0, 0, -h), SIMD3(0, h, 0))
    quad(SIMD3(-h, 0, 0), SIMD3(0, 0, h), SIMD3(0, h, 0))
    quad(SIMD3(0, h, 0), SIMD3(h, 0, 0), SIMD3(0, 0, -h))
    quad(SIMD3(0, -h, 0), SIMD3(h, 0, 0), SIMD3(0, 0, h))
    return (positions, uvs)
  }

  static func placement(_ position: Vector3, _ euler: Vector3) -> Matrix4 {
    let node = Node()
    node.position = position
    node.eulerAngles = euler
    return node.transform
  }

  // MARK: The reference

  struct Hit {
    var t: Double
    var triangle: Int
    var uv: SIMD2<Double>
  }

  /// Nearest hit of the ray `t·d` (camera at the origin, identity pose) with any triangle,
  /// both sides (Möller–Trumbore).
  static func cast(_ d: SIMD3<Double>, positions: [SIMD3<Double>], uvs: [SIMD2<Double>]) -> Hit? {
    var best: Hit?
    for i in 0..<(positions.count / 3) {
      let a = positions[3 * i]
      let e1 = positions[3 * i + 1] - a
      let e2 = positions[3 * i + 2] - a
      let p = cross(d, e2)
      let det = dot(e1, p)
      guard abs(det) > 1e-15 else { continue }
      let s = -a
      let b1 = dot(s, p) / det
      let q = cross(s, e1)
      let b2 = dot(d, q) / det
      let t = dot(e2, q) / det
      guard b1 >= 0, b2 >= 0, b1 + b2 <= 1, t > 0 else { continue }
      if t < best?.t ?? .infinity {
        let uv = uvs[3 * i] * (1 - b1 - b2) + uvs[3 * i + 1] * b1 + uvs[3 * i + 2] * b2
        best = Hit(t: t, triangle: i, uv: uv)
      }
    }
    return best
  }

  static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
  }
  static func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }

  static func direction(_ u: Double, _ v: Double) -> SIMD3<Double> {
    let k = camera.intrinsics
    return SIMD3((u - k.cx) / k.fx, -(v - k.cy) / k.fy, -1)
  }

  /// The reference's own mip chain: levels of ⌈w/2⌉ × ⌈h/2⌉ texels, rounded 2 × 2 means.
  static let chain: [(width: Int, height: Int, rgb: [SIMD3<Double>])] = {
    var levels: [(Int, Int, [SIMD3<Double>])] = []
    var w = texture.width
    var h = texture.height
    var rgb = (0..<(w * h)).map { i in
      SIMD3(
        Double(texture.pixels[4 * i]), Double(texture.pixels[4 * i + 1]),
        Double(texture.pixels[4 * i + 2]))
    }
    levels.append((w, h, rgb))
    while w > 1 || h > 1 {
      let nw = (w + 1) / 2
      let nh = (h + 1) / 2
      var next: [SIMD3<Double>] = []
      for y in 0..<nh {
        for x in 0..<nw {
          let x1 = min(2 * x + 1, w - 1)
          let y1 = min(2 * y + 1, h - 1)
          // The documented chain: the rounded mean of the four texels, per level.
          let sum =
            rgb[2 * y * w + 2 * x] + rgb[2 * y * w + x1] + rgb[y1 * w + 2 * x] + rgb[y1 * w + x1]
          next.append(((sum + 2) / 4).rounded(.down))
        }
      }
      (w, h, rgb) = (nw, nh, next)
      levels.append((w, h, rgb))
    }
    return levels
  }()

  /// Clamp-to-edge bilinear of a level, 0…255.
  static func bilinear(_ level: Int, _ uv: SIMD2<Double>) -> SIMD3<Double> {
    let (w, h, rgb) = chain[level]
    let x = min(max(uv.x * Double(w) - 0.5, 0), Double(w - 1))
    let y = min(max(uv.y * Double(h) - 0.5, 0), Double(h - 1))
    let x0 = Int(x)
    let y0 = Int(y)
    let x1 = min(x0 + 1, w - 1)
    let y1 = min(y0 + 1, h - 1)
    let fx = x - Double(x0)
    let fy = y - Double(y0)
    let top = rgb[y0 * w + x0] * (1 - fx) + rgb[y0 * w + x1] * fx
    let bottom = rgb[y1 * w + x0] * (1 - fx) + rgb[y1 * w + x1] * fx
    return top * (1 - fy) + bottom * fy
  }

  /// Trilinear with the documented level λ (log₂ ρ, linear between powers of two: ρ = 2ᵏ(1 + f)
  /// → k + f), ρ from finite differences of uv over one pixel.
  static func trilinear(_ uv: SIMD2<Double>, du: SIMD2<Double>, dv: SIMD2<Double>) -> SIMD3<Double>
  {
    let size = SIMD2(Double(texture.width), Double(texture.height))
    let rho = max(((du * size) * (du * size)).sum(), ((dv * size) * (dv * size)).sum()).squareRoot()
    guard rho > 1 else { return bilinear(0, uv) }
    let k = floor(log2(rho))
    let lambda = k + (rho / pow(2, k) - 1)
    let level = min(Int(lambda), chain.count - 1)
    guard level < chain.count - 1 else { return bilinear(level, uv) }
    let f = lambda - Double(level)
    return bilinear(level, uv) * (1 - f) + bilinear(level + 1, uv) * f
  }

  @Test("A textured box: every pixel within one level of the ray-cast, except on edges")
  func texturedBox() throws {
    let world = Self.placement(Vector3(0.15, -0.1, -2.2), Vector3(0.5, 0.7, 0.2))
    let (positions, uvs) = Self.box(size: 1.1, world: world)
    let base = Color(red: 0.9, green: 0.8, blue: 1.0)
    let environment = try #require(
      EnvironmentGeometry(
        positions: positions, uvs: uvs,
        materialIndices: [Int32](repeating: 0, count: positions.count / 3),
        materials: [
          EnvironmentMaterial(
            baseColor: base,
            texture: MipmappedTexture(Self.texture, wrapU: .clamp, wrapV: .clamp))
        ]))
    var list = RenderList(root: Node())
    list.environment = environment
    var checked = 0
    for threads in [1, 2] {
      let image = Renderer(
        options: RenderOptions(threads: threads, background: .solid(.black))
      ).render(list, camera: Self.camera).image
      var worst = 0
      for v in 0..<Self.height {
        for u in 0..<Self.width {
          let centre = Self.cast(
            Self.direction(Double(u), Double(v)), positions: positions, uvs: uvs)
          // Edges: a neighbour sees another face or nothing.
          let neighbours = [(1, 0), (-1, 0), (0, 1), (0, -1)].map {
            Self.cast(
              Self.direction(Double(u + $0.0), Double(v + $0.1)), positions: positions, uvs: uvs)
          }
          let pixel = image[u, v]
          guard let centre else {
            if neighbours.allSatisfy({ $0 == nil }) {
              #expect(pixel.r == 0 && pixel.g == 0 && pixel.b == 0, "(\(u), \(v)) should be empty")
            }
            continue
          }
          guard neighbours.allSatisfy({ $0 != nil && $0!.triangle / 2 == centre.triangle / 2 })
          else { continue }
          let du = neighbours[0]!.uv - neighbours[1]!.uv
          let dv = neighbours[2]!.uv - neighbours[3]!.uv
          let texel = Self.trilinear(centre.uv, du: du / 2, dv: dv / 2)
          let expected = texel * SIMD3(base.red, base.green, base.blue)
          let got = SIMD3(Double(pixel.r), Double(pixel.g), Double(pixel.b))
          let delta = got - expected.rounded(.toNearestOrAwayFromZero)
          let difference = Int(max(abs(delta.x), abs(delta.y), abs(delta.z)))
          worst = max(worst, difference)
          #expect(difference <= 1, "(\(u), \(v)): \(got) vs \(expected)")
          checked += 1
        }
      }
      #expect(worst <= 1)
    }
    // Most of the box is checked, not only a few pixels.
    #expect(checked > 2 * 1500)
  }
}
