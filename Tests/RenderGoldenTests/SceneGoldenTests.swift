import ARRender
import ARReplay
import ARSimCLI
import ARSimTesting
import Foundation
import Testing

/// Every scene in `Scenes/` replayed end to end (track, logs, sessions, renderer, PNG) at a
/// reduced size, at a few chosen frames. Perceptual tolerance (pixelmatch threshold 0.1, no
/// differing pixels allowed): exact bytes are pinned by the primitive goldens; these catch
/// behaviour changes in the replay.
@Suite struct SceneGoldenTests {
  static let scenesDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Scenes").path

  /// Replays `scene` at `width`×`height` and checks `frames` against their goldens.
  func check(_ scene: String, width: Int, height: Int, frames: [Int]) throws {
    let loaded = try ReplayScene.load(
      path: Self.scenesDirectory + "/" + scene + ".json", registry: .builtIn
    )
    .resized(width: width, height: height)
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("arsim-golden-\(scene)-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
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
}
