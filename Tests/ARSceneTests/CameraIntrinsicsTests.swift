import ARMath
import ARScene
import Testing

@Suite struct CameraIntrinsicsTests {
  let k = CameraIntrinsics.defaultCapture

  @Test("a camera-space point lands at (fx·x/z + cx, cy − fy·y/z)")
  func projection() throws {
    let (u, v) = try #require(k.project(Vector3(0.1, -0.2, -2)))
    #expect(u.isApproximatelyEqual(to: 1600 * 0.05 + 959.5, absoluteTolerance: 1e-12))
    #expect(v.isApproximatelyEqual(to: 719.5 + 1600 * 0.1, absoluteTolerance: 1e-12))
    #expect(k.project(Vector3(0, 0, 1)) == nil)
  }

  @Test("unproject(project(p)) is the ray through p")
  func unproject() throws {
    let p = Vector3(0.3, 0.25, -1.7)
    let (u, v) = try #require(k.project(p))
    let ray = k.ray(u: u, v: v)
    let atDepth = ray.point(at: 1.7)
    #expect(atDepth.isApproximatelyEqual(to: p, absoluteTolerance: 1e-12))
  }

  @Test("portrait aspect fill of 1920×1440 into 360×640: hand-computed intrinsics")
  func portraitAspectFill() {
    let out = k.output(viewport: .portrait, width: 360, height: 640)
    // Rotated: 1440×1920, fx' = fy = 1600, cx' = 1439 − 719.5 = 719.5, cy' = 959.5.
    // s = max(360/1440, 640/1920) = 1/3; scaled 480×640; crop (480 − 360)/2 = 60 in u.
    // cx = (719.5 + 0.5)/3 − 60 − 0.5 = 179.5; cy = (959.5 + 0.5)/3 − 0 − 0.5 = 319.5.
    #expect(out.fx.isApproximatelyEqual(to: 1600.0 / 3, absoluteTolerance: 1e-12))
    #expect(out.cx.isApproximatelyEqual(to: 179.5, absoluteTolerance: 1e-12))
    #expect(out.cy.isApproximatelyEqual(to: 319.5, absoluteTolerance: 1e-12))
    #expect(out.width == 360 && out.height == 640)
  }

  @Test("portrait: a point on the capture camera's −X axis shows above the centre")
  func portraitRoll() throws {
    let viewport = Viewport.portrait
    // In capture-camera space: left of centre (−X). On an upright phone that is screen up.
    let capturePoint = Vector3(-0.1, 0, -1)
    let viewportPoint = viewport.captureFromViewport.conjugate.act(capturePoint)
    let out = k.output(viewport: .portrait, width: 1440, height: 1920)
    let (u, v) = try #require(out.project(viewportPoint))
    #expect(u.isApproximatelyEqual(to: out.cx, absoluteTolerance: 1e-9))
    #expect(v < out.cy - 100)
    // The same pixel from the capture image: capture (u_c, v_c) shows at (H−1−v_c, u_c).
    let (uc, vc) = try #require(k.project(capturePoint))
    #expect(u.isApproximatelyEqual(to: 1439 - vc, absoluteTolerance: 1e-9))
    #expect(v.isApproximatelyEqual(to: uc, absoluteTolerance: 1e-9))
  }
}
