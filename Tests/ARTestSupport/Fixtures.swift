import Foundation

/// Where tests find their inputs: the fixtures several test targets read
/// (`Tests/__Fixtures__/`), and the scenes and inputs the repository ships (`Scenes/`).
/// Found through this file's `#filePath`, so every target finds them the same way from any
/// working directory.
public enum Fixtures {
  /// The repository's root folder (the one holding `Package.swift`).
  public static let repository: String =
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

  /// `Tests/__Fixtures__/<name>`, e.g. `path("tracks/tum_fr1_xyz_groundtruth.txt")`; each
  /// folder's README.md names the source and licence of its files.
  public static func path(_ name: String) -> String {
    repository + "/Tests/__Fixtures__/" + name
  }

  /// `<repository>/<relative>`, e.g. `repositoryPath("Scenes")`.
  public static func repositoryPath(_ relative: String) -> String {
    repository + "/" + relative
  }
}
