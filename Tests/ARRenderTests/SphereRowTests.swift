import ARMath
import ARScene
import Testing

@testable import ARRasterizer
@testable import ARRender

@Suite("SphereRow and the rasterizer's rounding helpers")
struct SphereRowTests {
  /// A sphere of radius 0.25 m, 2 m ahead of the camera, slightly off axis, under a 1.5 scale.
  func sphere(near: Double = 0.01) throws -> SpherePrimitive {
    let intrinsics = CameraIntrinsics(fx: 100, fy: 100, cx: 32, cy: 24, width: 64, height: 48)
    let cameraFromNode = Matrix4(
      Vector4(1.5, 0, 0, 0), Vector4(0, 1.5, 0, 0), Vector4(0, 0, 1.5, 0),
      Vector4(0.1, -0.05, -2, 1))
    return try #require(
      SpherePrimitive(
        radius: 0.25, cameraFromNode: cameraFromNode, intrinsics: intrinsics, near: near,
        far: 100))
  }

  @Test("two-lane depths equal the one-sample depth bit for bit, misses as +∞")
  func pairedDepthsMatchScalar() throws {
    for near in [0.01, 1.9] {
      let prepared = try sphere(near: near)
      var compared = 0
      for v in 0..<48 {
        let row = prepared.row(v: Double(v))
        for u in stride(from: 0, to: 64, by: 2) {
          let pair = row.depths(u: SIMD2(Double(u), Double(u + 1)), near: near, far: 100)
          for lane in 0..<2 {
            let scalar = row.depth(u: Double(u + lane), near: near, far: 100)
            #expect(pair[lane].bitPattern == (scalar ?? .infinity).bitPattern)
            if scalar != nil { compared += 1 }
          }
        }
      }
      // The sphere covers a disc of radius ≈ 100 · 0.375 / 2 ≈ 19 px: hundreds of hits.
      #expect(compared > 500)
    }
  }

  @Test("lane depths equal the one-sample depth bit for bit, misses and clipped roots as +∞")
  func laneDepthsMatchScalar() throws {
    // near 1.9 cuts the sphere (the far root where the near one is before it), far 1.8 drops
    // the far half of the samples.
    for (near, far) in [(0.01, 100.0), (1.9, 100), (0.01, 1.8)] {
      let prepared = try sphere(near: near)
      var compared = 0
      for v in 0..<48 {
        let row = prepared.row(v: Double(v) + 0.25)
        for u in stride(from: 0, to: 64, by: laneCount) {
          let lanes = row.depths(u: DoubleLanes.laneIndices + Double(u), near: near, far: far)
          for lane in 0..<laneCount {
            let scalar = row.depth(u: Double(u + lane), near: near, far: far)
            #expect(lanes[lane].bitPattern == (scalar ?? .infinity).bitPattern, "u \(u + lane)")
            if scalar != nil { compared += 1 }
          }
        }
      }
      #expect(compared > 300, "near \(near), far \(far)")
    }
  }

  @Test("a pixel at the projected centre is hit at the near surface, depth 2 − 0.375 m")
  func centreDepth() throws {
    let prepared = try sphere()
    // Centre (0.1, −0.05, −2) projects to u = 32 + 100 · 0.1 / 2 = 37, v = 24 + 100 · 0.05 / 2
    // = 26.5; the ray through it meets the sphere (radius 0.375) 0.375 m before the centre
    // along the ray, i.e. depth 2 · (1 − 0.375 / |c|).
    let distance = (0.1 * 0.1 + 0.05 * 0.05 + 4.0).squareRoot()
    let depth = try #require(prepared.depth(u: 37, v: 26.5, near: 0.01, far: 100))
    #expect(abs(depth - 2 * (1 - 0.375 / distance)) < 1e-12)
    // The fast shading data: camera centre and 1 / (0.25 · 1.5).
    #expect(prepared.centre == SIMD3(0.1, -0.05, -2))
    #expect(abs(prepared.inverseRadius - 1 / 0.375) < 1e-12)
  }

  @Test("roundedUp and roundedDown agree with rounded(.up) and rounded(.down)")
  func roundingHelpers() {
    let values: [Double] = [
      0, -0.0, 0.5, -0.5, 1, -1, 2.5, -2.5, 1e-300, -1e-300, 0.9999999999999999,
      -0.9999999999999999, 4503599627370495.5, -4503599627370495.5, 0x1p52, -0x1p52, 0x1p60,
      .infinity, -.infinity, 1919.0000000000002, 1918.9999999999998,
    ]
    for x in values {
      #expect(roundedUp(x) == x.rounded(.up))
      #expect(roundedDown(x) == x.rounded(.down))
    }
    #expect(roundedUp(.nan).isNaN)
    #expect(roundedDown(.nan).isNaN)
  }
}
