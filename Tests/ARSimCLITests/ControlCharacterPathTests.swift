import ARTestSupport
import Foundation
import Testing

/// A file name with a line break or an escape sequence never reaches the terminal raw: every
/// message line still starts with `arsim` (or is an indented continuation), so a name cannot
/// forge a line of output.
@Suite("Control characters in file names")
struct ControlCharacterPathTests {
  let folder = TemporaryFolder("control-path")
  let name = "ctl\u{1B}[31m\nname"

  /// Lines of `text` that are neither `arsim …` nor indented.
  static func forged(_ text: String) -> [Substring] {
    text.split(separator: "\n").filter { !$0.hasPrefix("arsim") && !$0.hasPrefix("  ") }
  }

  func scene(_ extra: String, track: String = "track.txt") throws -> String {
    try FileManager.default.copyItem(
      atPath: Fixtures.repositoryPath("Scenes/Inputs/tum_fr1_xyz_groundtruth.txt"),
      toPath: folder.file("track.txt"))
    return folder.write(
      """
      {"name":"t","track":{"path":"\(track)"},"output":{"width":16,"height":12},
       "duration":0.1\(extra)}
      """, to: name + ".json")
  }

  @Test("a scene-file warning and the run's summary escape the line break")
  func warningAndSummary() throws {
    defer { folder.remove() }
    let path = try scene(#","bogus":1"#)
    let (status, output) = runCommand(["render", path, "--out", folder.file(name)])
    #expect(status == 0, "\(output.standardError)")
    #expect(output.standardError.contains("is not a scene field"))
    #expect(output.standardError.contains(#"ctl\u{1B}[31m\nname"#))
    #expect(Self.forged(output.standardError).isEmpty, "\(output.standardError)")
  }

  @Test("a missing input named by such a scene escapes the scene's name")
  func namedBy() throws {
    defer { folder.remove() }
    let path = try scene("", track: "nope.txt")
    let (status, output) = runCommand(["render", path, "--out", folder.file("out")])
    #expect(status == 66)
    #expect(output.standardError.contains("named by"))
    #expect(Self.forged(output.standardError).isEmpty, "\(output.standardError)")
  }

  @Test("compare's result on standard output escapes the name")
  func compareResult() throws {
    defer { folder.remove() }
    let png = folder.write(ZeroPNG.bytes(width: 4, height: 4), to: name + ".png")
    let (status, output) = runCommand(["compare", png, png])
    #expect(status == 0, "\(output.standardError)")
    #expect(output.standardOutput.contains(#"\nname.png"#))
    #expect(!output.standardOutput.dropLast().contains("\n"), "\(output.standardOutput)")
  }
}
