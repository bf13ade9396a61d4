import ARReplay
import ARSimCLI
import Foundation

/// A bundled scene (tum-house-undo: five strokes, an undo, dropped points) replayed once at
/// 96×72 into a temporary folder, shared by the report and command-line tests.
public enum RenderedRun {
  /// The output folder, or the error the replay threw.
  public static let folder: Result<String, any Error> = Result {
    let scene = try ReplayScene.load(
      path: Fixtures.repository + "/Scenes/tum-house-undo.json", registry: .builtIn
    )
    .resized(width: 96, height: 72)
    let directory = TemporaryFolder("media-run").path
    _ = try Replay(scene: scene).run(ReplayOptions(outputDirectory: directory, threads: 2))
    return directory
  }
}
