import ARMath
import ARRemoteAssist
import ARScene
import Testing

/// The 5 × 7 grid of helper points across the helper's screen, edges included (points from
/// the view centre, y down).
private func grid(width: Double, height: Double) -> [Vector2] {
  var points: [Vector2] = []
  for row in 0..<7 {
    for column in 0..<5 {
      points.append(
        Vector2(width * (Double(column) / 4 - 0.5), height * (Double(row) / 6 - 0.5)))
    }
  }
  return points
}

/// A viewport camera of the default 1920×1440 capture (fx = 1600) shown through `viewport` at
/// `width`×`height`, the capture camera at `position` turned by `yaw` about +Y and `pitch`
/// about +X.
private func camera(
  _ viewport: Viewport, width: Int, height: Int, position: Vector3, yaw: Double, pitch: Double
) -> Camera {
  let capture = RigidTransform(
    rotation: Quaternion(axis: .unitY, angleRadians: yaw)
      * Quaternion(axis: .unitX, angleRadians: pitch),
    translation: position)
  let rolled = capture * RigidTransform(rotation: viewport.captureFromViewport, translation: .zero)
  return Camera(
    intrinsics: CameraIntrinsics.defaultCapture.output(
      viewport: viewport, width: width, height: height),
    worldFromCamera: rolled)
}

@Suite struct StrokePlacementTests {
  /// The camera that saw the touch (τ_seen), the camera at touch-start (the root's) and the
  /// camera at the tick the point is popped (the look-at's) all differ, as when the broadcaster
  /// walks while the video and data are delayed.
  private struct Rig {
    var viewport: Viewport
    var width: Int
    var height: Int
    var helper: HelperScreen

    var seen: Camera {
      camera(
        viewport, width: width, height: height, position: Vector3(0.1, 1.4, 0.2), yaw: 0.15,
        pitch: -0.1)
    }
    var atTouchStart: Camera {
      camera(
        viewport, width: width, height: height, position: Vector3(0.05, 1.45, 0.25), yaw: 0.1,
        pitch: -0.05)
    }
    var atPop = Vector3(0.2, 1.38, 0.1)
  }

  private func checkScreenGrid(_ rig: Rig) throws {
    let view = rig.helper.videoView(videoWidth: rig.width, videoHeight: rig.height)
    let start = rig.atTouchStart.worldFromCamera
    let rootPosition = start.translation + start.transformDirection(Vector3(0, 0, -1))
    let pose = try #require(
      StrokePlacement.sheetPose(rootPosition: rootPosition, cameraPosition: rig.atPop))
    var worst = 0.0
    for point in grid(width: rig.helper.width, height: rig.helper.height) {
      guard case .pixel(let u, let v) = view.locate(point) else {
        Issue.record("aspect fill maps every on-screen point to a pixel: \(point)")
        continue
      }
      let ray = rig.seen.worldRay(u: u, v: v)
      let local = try #require(
        StrokePlacement.sheetPosition(ray: ray, rootPose: pose, rootScale: 1.25))
      #expect(abs(local.z) < 1e-12)
      let world = pose.transformPoint(local * 1.25)
      let projected = try #require(rig.seen.project(world: world))
      worst = max(
        worst,
        ((projected.u - u) * (projected.u - u) + (projected.v - v) * (projected.v - v)).squareRoot()
      )
    }
    // The issue asks for 0.5 px; the geometry is exact up to rounding.
    #expect(worst < 1e-6, "worst \(worst) px")
  }

  @Test(
    "screen: every grid point projects onto its touched pixel, portrait viewport, portrait helper")
  func screenPortrait() throws {
    try checkScreenGrid(Rig(viewport: .portrait, width: 360, height: 640, helper: HelperScreen()))
  }

  @Test(
    "screen: every grid point projects onto its touched pixel, landscape viewport, landscape helper"
  )
  func screenLandscape() throws {
    try checkScreenGrid(
      Rig(
        viewport: .landscape, width: 640, height: 480, helper: HelperScreen(width: 844, height: 390)
      ))
  }

  @Test(
    "screen: a portrait video on a landscape helper (aspect fill crops rows) still lands exactly")
  func screenPortraitOnLandscape() throws {
    try checkScreenGrid(
      Rig(
        viewport: .portrait, width: 360, height: 640, helper: HelperScreen(width: 844, height: 390))
    )
  }

  /// The issue's observation: with the default capture (fx = 1600) on a 1440×1920 portrait
  /// output and the app's 1.25 mm per point at 1 m, a helper point lands at
  /// 2 px/pt ÷ (1920/844 px/pt) = 0.879 of its offset from the centre; the top row is 116 px
  /// short. A check that faithful placement would fail the 0.5 px test.
  @Test(
    "the app's 1.25 mm per point lands at 0.879 of the drawn offset (116 px off at the top row)")
  func appScale() throws {
    // An upright phone: the viewport camera (screen right, screen up) is the world's (x, y).
    let still = Camera(
      intrinsics: CameraIntrinsics.defaultCapture.output(
        viewport: .portrait, width: 1440, height: 1920),
      worldFromCamera: .identity)
    let view = HelperScreen().videoView(videoWidth: 1440, videoHeight: 1920)
    let top = Vector2(0, -422)
    guard case .pixel(_, let touchedV) = view.locate(top) else {
      Issue.record("no pixel")
      return
    }
    // The app: root 1 m ahead looking back at the camera, sphere at 1.25·(x, −y)/1000 in world
    // terms (DESIGN §5): world (0, +0.5275, −1).
    let app = Vector3(1.25 * top.x / 1000, -1.25 * top.y / 1000, -1)
    let projected = try #require(still.project(world: app))
    // Touched: v = −422 / (844/1920) + 959.5 = −0.5 (the top edge); landed: 959.5 − 1600·0.5275.
    #expect(abs(touchedV - -0.5) < 1e-9)
    #expect(abs(projected.v - 115.5) < 1e-9)
    #expect(abs((959.5 - projected.v) / (959.5 - touchedV) - 844.0 / 960) < 1e-12)
  }

  @Test("surface: the sphere sits on the desk at its radius, centre on the touched pixel's ray")
  func surfaceDesk() throws {
    let desk = PlaneAnchor(
      identifier: "desk",
      worldFromAnchor: RigidTransform(rotation: .identity, translation: Vector3(0, 0.73, -0.6)),
      extent: Vector3(1.6, 0, 1.0))
    let seen = camera(
      .landscape, width: 640, height: 480, position: Vector3(0, 1.3, 0), yaw: 0, pitch: -0.7)
    let scene = HitTestScene(planes: [desk], estimatedFloorY: 0)
    let hit = try #require(
      StrokePlacement.surfaceHit(u: 300, v: 260, camera: seen, scene: scene, radius: 0.01875))
    #expect(hit.anchor?.identifier == "desk")
    #expect(hit.type == .existingPlaneUsingGeometry)
    #expect(abs(hit.centre.y - (0.73 + 0.01875)) < 1e-12)
    let projected = try #require(seen.project(world: hit.centre))
    #expect(abs(projected.u - 300) < 1e-6 && abs(projected.v - 260) < 1e-6)
    // Beyond the desk's extent the estimated floor (y = 0) is hit instead.
    let floor = try #require(
      StrokePlacement.surfaceHit(u: 300, v: 5, camera: seen, scene: scene, radius: 0.01875))
    #expect(floor.anchor == nil)
    #expect(floor.type == .estimatedHorizontalPlane)
    #expect(abs(floor.centre.y - 0.01875) < 1e-12)
    // Nothing to hit above the horizon.
    #expect(
      StrokePlacement.surfaceHit(
        u: 300, v: 5, camera: seen, scene: HitTestScene(planes: [desk]), radius: 0.01875) == nil)
  }
}
