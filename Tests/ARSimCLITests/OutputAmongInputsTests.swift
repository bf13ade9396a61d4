import ARTestSupport
import Foundation
import Testing

@testable import ARSimCLI

/// `--out` naming the folder that holds the scene's inputs (`--out Scenes`) warns, naming the
/// inputs it holds (issue 27, item 18).
@Suite("--out among the scene's inputs")
struct OutputAmongInputsTests {

  @Test("render --out the scene's folder: a warning naming the inputs there; the run goes on")
  func sceneFolder() throws {
    let root = try VideoOverwriteTests.makeRoot()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let (code, output) = runCommand(["render", root + "/scene.json", "--out", root + "/."])
    #expect(code == 0, "\(output.standardError)")
    #expect(
      output.standardError.contains(
        "arsim render: warning: --out '\(root)/.' holds the scene's inputs 'scene.json', "
          + "'Inputs/track.txt' and 'Inputs/strokes.jsonl': the run's files are written among them"
      ), "\(output.standardError)")
    #expect(FileManager.default.fileExists(atPath: root + "/frame_00000.png"))
  }

  @Test("render --out the Inputs folder names only what it holds; a folder of its own: no warning")
  func inputsFolderAndOwnFolder() throws {
    let root = try VideoOverwriteTests.makeRoot()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let (_, inside) = runCommand(["render", root + "/scene.json", "--out", root + "/Inputs"])
    #expect(
      inside.standardError.contains(
        "holds the scene's inputs 'track.txt' and 'strokes.jsonl': the run's files"),
      "\(inside.standardError)")
    let (code, own) = runCommand(["render", root + "/scene.json", "--out", root + "/o"])
    #expect(code == 0)
    #expect(!own.standardError.contains("holds the scene's"), "\(own.standardError)")
  }

  @Test("more than three inputs: the first three and how many more")
  func manyInputs() {
    let warning = outputAmongInputsWarning(
      directory: "/s", inputs: ["/s/a.json", "/s/b", "/s/c", "/s/d", "/s/e", "/t/f"])
    #expect(
      warning
        == "--out '/s' holds the scene's inputs 'a.json', 'b', 'c' and 2 more: the run's "
        + "files are written among them (choose a folder of its own)")
    #expect(outputAmongInputsWarning(directory: "/s", inputs: ["/t/a", "/sx/b"]) == nil)
  }
}
