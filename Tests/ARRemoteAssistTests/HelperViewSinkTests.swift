import ARFormats
import ARMath
import ARRemoteAssist
import ARRender
import ARReplay
import ARSimCLI
import ARTestSupport
import Foundation
import Testing

/// `--helper-view`: the helper's screen shows the broadcaster frame of 0.2 s earlier, fitted as
/// its view shows it, with its touches; checked against the broadcaster's own PNG files.
@Suite struct HelperViewSinkTests {
  private func run(_ scene: ReplayScene, frames: ClosedRange<Int>) throws -> TemporaryFolder {
    let folder = TemporaryFolder("helper-view")
    let directory = folder.path
    var options = ReplayOptions(outputDirectory: directory, frameRange: frames, threads: 1)
    options.frameSinks = { setup in try HelperViewSink(setup).map { [$0] } ?? [] }
    _ = try Replay(scene: scene).run(options)
    return folder
  }

  private func image(_ path: String) throws -> Image { try Image(contentsOfPNG: path) }

  /// Pixel (x, y) as [r, g, b, a].
  private func rgba(_ image: Image, _ x: Int, _ y: Int) -> [UInt8] {
    let p = image[x, y]
    return [p.r, p.g, p.b, p.a]
  }

  @Test(
    "aspect fill on a landscape helper: each screen pixel away from the touches is the video pixel of the frame 6 frames (0.2 s at 30 fps) earlier"
  )
  func delayedFill() throws {
    let scene = try ReplayScene.load(
      path: DeskCircleSceneTests.scenes + "/tum-desk-circle-surface.json", registry: .builtIn
    ).resized(width: 64, height: 48)
    let folder = try run(scene, frames: 94...104)
    defer { folder.remove() }
    let directory = folder.path
    let helper = HelperScreen(width: 844, height: 390, videoLatency: 0.2)
    let trail = HelperTrail(
      messages: try StrokeLog.read(path: DeskCircleSceneTests.logPath).messages, helper: helper)
    for frame in [100, 104] {
      let screen = try image(directory + "/helper/" + String(format: "frame_%05d.png", frame))
      let video = try image(directory + "/" + String(format: "frame_%05d.png", frame - 6))
      #expect(screen.width == 844 && screen.height == 390)
      let touches = trail.visible(at: Double(frame) / 30)
      #expect(!touches.isEmpty)
      let s = 844.0 / 64  // points per video pixel: the width fills, 48 rows → 633 points, cropped
      var checked = 0
      for y in stride(from: 0, to: 390, by: 13) {
        for x in stride(from: 0, to: 844, by: 17) {
          let point = Vector2(Double(x) + 0.5 - 422, Double(y) + 0.5 - 195)
          if touches.contains(where: { ($0.point - point).length < 8 }) { continue }
          let u = Int((point.x / s + 31.5).rounded())
          let v = Int((point.y / s + 23.5).rounded())
          #expect(rgba(screen, x, y) == rgba(video, u, v), "helper (\(x), \(y)) frame \(frame)")
          checked += 1
        }
      }
      #expect(checked > 1000)
      // A touch disc is drawn over the video: bluer than the video pixel under it.
      let touch = try #require(touches.last)
      let tx = Int((touch.point.x + 422 - 0.5).rounded())
      let ty = Int((touch.point.y + 195 - 0.5).rounded())
      let under = video[
        Int((touch.point.x / s + 31.5).rounded()), Int((touch.point.y / s + 23.5).rounded())]
      #expect(screen[tx, ty].b > under.b || under.b == 255)
      #expect(screen[tx, ty].r < under.r)
    }
  }

  @Test("the first 0.2 s have no delayed frame yet: black video; aspect fit leaves black bars")
  func blackBeforeAndBars() throws {
    var scene = try ReplayScene.load(
      path: DeskCircleSceneTests.scenes + "/tum-desk-circle.json", registry: .builtIn
    ).resized(width: 64, height: 48)
    // A portrait helper with aspect fit: the 64×48 video is 390 × 292.5 points, bars above and
    // below (|y| > 146.25).
    scene.sessions = scene.sessions.map { session in
      guard var c = session.configuration as? RemoteAssistKind.Configuration else { return session }
      c.configuration.helper = HelperScreen(contentMode: .aspectFit, videoLatency: 0.2)
      return SceneSession(key: session.key, configuration: c)
    }
    let folder = try run(scene, frames: 0...7)
    defer { folder.remove() }
    let directory = folder.path
    let first = try image(directory + "/helper/frame_00005.png")
    #expect(first.width == 390 && first.height == 844)
    #expect(first.pixels.allSatisfy { $0 == 0 || $0 == 255 })  // black, alpha 255; no touches yet
    let later = try image(directory + "/helper/frame_00007.png")
    let video = try image(directory + "/frame_00001.png")
    #expect(rgba(later, 195, 10) == [0, 0, 0, 255])  // top bar
    #expect(rgba(later, 195, 830) == [0, 0, 0, 255])  // bottom bar
    // Pixel (100, 422) is the point (100.5 − 195, 422.5 − 422) = (−94.5, 0.5) from the centre;
    // s = 390/64 points per video pixel.
    let s = 390.0 / 64
    let u = Int((-94.5 / s + 31.5).rounded())
    let v = Int((0.5 / s + 23.5).rounded())
    #expect(rgba(later, 100, 422) == rgba(video, u, v))
  }
}
