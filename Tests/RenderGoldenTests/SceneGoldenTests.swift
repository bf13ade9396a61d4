import ARRender
import ARReplay
import ARSimCLI
import ARSimTesting
import ARTestSupport
import Foundation
import Testing

/// Every scene in `Scenes/` replayed end to end (track, logs, sessions, renderer, PNG) at a
/// reduced size, at a few chosen frames. Perceptual tolerance (pixelmatch threshold 0.1, no
/// differing pixels allowed): exact bytes are pinned by the primitive goldens; these catch
/// behaviour changes in the replay.
@Suite struct SceneGoldenTests {
  static let scenesDirectory = Fixtures.repositoryPath("Scenes")

  /// Replays `scene` at `width`×`height` and checks `frames` against their goldens.
  func check(_ scene: String, width: Int, height: Int, frames: [Int]) throws {
    let loaded = try ReplayScene.load(
      path: Self.scenesDirectory + "/" + scene + ".json", registry: .builtIn
    )
    .resized(width: width, height: height)
    let temporary = TemporaryFolder("golden-\(scene)")
    defer { temporary.remove() }
    let directory = temporary.path
    let replay = Replay(scene: loaded)
    for frame in frames {
      _ = try replay.run(
        ReplayOptions(outputDirectory: directory, frameRange: frame...frame, threads: 2))
      let name = String(format: "frame_%05d.png", frame)
      let image = try Image(contentsOfPNG: directory + "/" + name)
      assertGolden(
        image, named: "\(scene)-\(frame)",
        tolerance: .perceptual(threshold: 0.1, maxDifferingPixels: 0))
    }
  }

  /// Replays each named view of a multi-view scene at its reduced size and checks `frames`.
  func checkViews(
    _ scene: String, _ views: [(name: String, width: Int, height: Int, frames: [Int])]
  )
    throws
  {
    let loaded = try ReplayScene.load(
      path: Self.scenesDirectory + "/" + scene + ".json", registry: .builtIn)
    for view in views {
      let index = try #require(loaded.viewNames.firstIndex(of: view.name))
      let viewScene = try loaded.scene(forView: index).resized(
        width: view.width, height: view.height)
      let temporary = TemporaryFolder("golden-\(scene)-\(view.name)")
      defer { temporary.remove() }
      let directory = temporary.path
      for frame in view.frames {
        _ = try Replay(scene: viewScene).run(
          ReplayOptions(outputDirectory: directory, frameRange: frame...frame, threads: 2))
        let image = try Image(contentsOfPNG: directory + String(format: "/frame_%05d.png", frame))
        assertGolden(
          image, named: "\(scene)-\(view.name)-\(frame)",
          tolerance: .perceptual(threshold: 0.1, maxDifferingPixels: 0))
      }
    }
  }

  @Test(
    "collab-three: A's desk with the tree and B's rock, B's translucent peer; B sees A's sphere; C's globe with the room marker, then the models after joining"
  )
  func collabThree() throws {
    try checkViews(
      "collab-three",
      [
        ("A", 160, 120, [50, 170]), ("B", 144, 256, [40, 100]), ("C", 144, 256, [30, 150, 200]),
      ])
  }

  @Test("arkit-cat: the cat half drawn, complete, then rising as the phone moves down")
  func arkitCat() throws {
    try check("arkit-cat", width: 144, height: 256, frames: [40, 75, 100])
  }

  @Test("tum-house-undo: the house drawn, then its last stroke removed by undo")
  func tumHouse() throws {
    try check("tum-house-undo", width: 192, height: 144, frames: [120, 225, 245])
  }

  @Test("arkit-colors: red star, green circle, yellow zigzag along the walk")
  func arkitColors() throws {
    try check("arkit-colors", width: 144, height: 256, frames: [60, 200, 450])
  }

  @Test("tum-measure: the desk plane and the white measuring bar while measuring")
  func tumMeasure() throws {
    try check("tum-measure", width: 192, height: 144, frames: [120, 239])
  }

  @Test("tum-displayer: the fading plane marker, then the video screen facing the camera")
  func tumDisplayer() throws {
    try check("tum-displayer", width: 192, height: 144, frames: [10, 30, 60])
  }

  @Test("tum-desk-circle: the helper's circle on the app's sheet, floating off the desk (faithful)")
  func tumDeskCircle() throws {
    try check("tum-desk-circle", width: 192, height: 144, frames: [125, 140])
  }

  @Test("tum-desk-circle-surface: the same circle resting on the desk plane (surface mode)")
  func tumDeskCircleSurface() throws {
    try check("tum-desk-circle-surface", width: 192, height: 144, frames: [125, 140])
  }

  @Test("tum-desk-circle-surface-room: the circle lying on the room's textured desk")
  func tumDeskCircleSurfaceRoom() throws {
    try check("tum-desk-circle-surface-room", width: 192, height: 144, frames: [125])
  }

  @Test("tum-measure-room: the measuring bar on the room's desk top")
  func tumMeasureRoom() throws {
    try check("tum-measure-room", width: 192, height: 144, frames: [200])
  }
}
