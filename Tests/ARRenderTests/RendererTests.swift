import ARMath
import ARScene
import Testing

@testable import ARRasterizer
@testable import ARRender

@Suite("Renderer")
struct RendererTests {
  @Test("100 random spheres cover exactly the pixel centres inside their analytic silhouette")
  func sphereCoverageMatchesSilhouetteCone() {
    var random = SeededGenerator(seed: 42)
    var coveredTotal = 0
    let camera = originCamera(width: 96, height: 72, focal: 80, cx: 47.3, cy: 35.6)
    for _ in 0..<100 {
      let depth = Double.random(in: 1...4, using: &random)
      let centre = Vector3(
        Double.random(in: -1.5...1.5, using: &random) * depth / 2,
        Double.random(in: -1...1, using: &random) * depth / 2, -depth)
      let radius = Double.random(in: 0.02...0.4, using: &random)
      let scale = Double.random(in: 0.5...2, using: &random)
      let node = Node(geometry: .sphere(radius: radius / scale, material: unlitWhite))
      node.position = centre
      node.scale = Vector3(scale, scale, scale)
      node.orientation = Quaternion(
        axis: Vector3(1, 2, 3), angleRadians: Double.random(in: 0...3, using: &random))
      let covered = coverage(node, camera: camera)
      func inside(_ u: Double, _ v: Double) -> Bool {
        let d = pixelDirection(camera, u: u, v: v)
        let dc = d.dot(centre)
        return dc * dc - d.lengthSquared * (centre.lengthSquared - radius * radius) > 0
      }
      var mismatches = 0
      coveredTotal += covered.filter { $0 }.count
      for v in 0..<72 {
        for u in 0..<96 where isUnambiguous(u: Double(u), v: Double(v), inside) {
          if covered[v * 96 + u] != inside(Double(u), Double(v)) { mismatches += 1 }
        }
      }
      #expect(mismatches == 0, "sphere at \(centre) radius \(radius)")
    }
    #expect(coveredTotal > 10_000)
  }

  @Test("4×4 supersampled sphere: coverage centroid at the ellipse centre, exact depth")
  func supersampledCentroidAndDepth() throws {
    let camera = originCamera(width: 200, height: 160, focal: 150, cx: 99.5, cy: 79.5)
    let centre = Vector3(0.35, -0.2, -1.5)
    let radius = 0.45  // ≈ 45 px
    let node = Node(geometry: .sphere(radius: radius, material: unlitWhite))
    node.position = centre
    let renderer = Renderer(
      options: RenderOptions(
        threads: 2, supersampling: 4, background: .solid(.black), writesDepth: true))
    let frame = renderer.render(RenderList(root: node), camera: camera)
    var weight = 0.0
    var sumU = 0.0
    var sumV = 0.0
    for v in 0..<160 {
      for u in 0..<200 {
        let w = Double(frame.image[u, v].r) / 255
        weight += w
        sumU += w * Double(u)
        sumV += w * Double(v)
      }
    }
    // Silhouette conic in pixels: pᵀ Mᵀ (c cᵀ − (|c|² − r²) I) M p = 0, p = (u, v, 1),
    // d = M p = ((u − cx)/fx, −(v − cy)/fy, −1). Its centre solves the 2×2 linear part.
    let k = camera.intrinsics
    let m: [[Double]] = [[1 / k.fx, 0, -k.cx / k.fx], [0, -1 / k.fy, k.cy / k.fy], [0, 0, -1]]
    let c = [centre.x, centre.y, centre.z]
    let s = centre.lengthSquared - radius * radius
    var a = [[Double]](repeating: [0, 0, 0], count: 3)
    for i in 0..<3 { for j in 0..<3 { a[i][j] = c[i] * c[j] - (i == j ? s : 0) } }
    var conic = [[Double]](repeating: [0, 0, 0], count: 3)
    for i in 0..<3 {
      for j in 0..<3 {
        for p in 0..<3 { for q in 0..<3 { conic[i][j] += m[p][i] * a[p][q] * m[q][j] } }
      }
    }
    let det = conic[0][0] * conic[1][1] - conic[0][1] * conic[1][0]
    let centreU = (-conic[0][2] * conic[1][1] + conic[1][2] * conic[0][1]) / det
    let centreV = (-conic[1][2] * conic[0][0] + conic[0][2] * conic[1][0]) / det
    #expect(abs(sumU / weight - centreU) < 0.05)
    #expect(abs(sumV / weight - centreV) < 0.05)

    // Depth at pixel (130, 100): the analytic near root of |t d − c|² = r².
    let d = pixelDirection(camera, u: 130, v: 100)
    let b = d.dot(centre)
    let t = (b - (b * b - d.lengthSquared * s).squareRoot()) / d.lengthSquared
    #expect(abs(frame.depthMetres[100 * 200 + 130] - t) < 1e-4)
    let depth = try #require(frame.depth)
    #expect(depth.millimetres[100 * 200 + 130] == DepthImage.millimetres(fromMetres: t))
    #expect(depth.millimetres[0] == 0)
  }

  @Test("a box seen from a corner covers every pixel of its silhouette exactly once")
  func boxFacesShareEdgesWithoutGapsOrOverlap() {
    let camera = originCamera(width: 80, height: 60, focal: 70)
    let node = Node(geometry: .box(width: 0.8, height: 0.6, length: 0.7, material: unlitWhite))
    node.position = Vector3(0.05, -0.02, -2)
    node.eulerAngles = Vector3(0.5, 0.7, 0.1)
    let counts = Renderer(options: RenderOptions()).coverageCounts(
      RenderList(root: node), camera: camera)
    let covered = coverage(node, camera: camera)
    #expect(counts.allSatisfy { $0 <= 1 })
    #expect(counts.map { $0 == 1 } == covered)
    #expect(counts.reduce(0, +) > 500)
  }
}
