import ARRender
import ARReplay
import ARSession
import ARSimCLI
import ARTestSupport
import Foundation

/// A bundled scene (tum-house-undo: five strokes, an undo, dropped points) replayed once at
/// 96×72 into a temporary folder, shared by the report and video tests.
enum RenderedRun {
  static let repository = Fixtures.repository

  /// The output folder, or the error the replay threw.
  static let folder: Result<String, any Error> = Result {
    let scene = try ReplayScene.load(
      path: repository + "/Scenes/tum-house-undo.json", registry: .builtIn
    )
    .resized(width: 96, height: 72)
    let directory = TemporaryFolder("media-run").path
    _ = try Replay(scene: scene).run(ReplayOptions(outputDirectory: directory, threads: 2))
    return directory
  }
}
