import ARRender
import ARTestSupport
import Foundation
import Testing

@testable import ARSimCLI

/// An output file in a folder that does not exist is refused (73, naming the folder) before
/// any work, and the folder is not created (issue 27, item 17).
@Suite("output folders are checked before any work")
struct OutputFolderCheckTests {

  @Test("render --video into a missing folder: 73 before the first frame, nothing created")
  func renderVideo() throws {
    let root = try VideoOverwriteTests.makeRoot()
    defer { try? FileManager.default.removeItem(atPath: root) }
    for scene in ["scene.json", "collab.json"] {
      let (code, output) = runCommand([
        "render", root + "/" + scene, "--out", root + "/o", "--video", root + "/none/v.mp4",
      ])
      #expect(code == 73, "\(output.standardError)")
      #expect(
        output.standardError.contains(
          "--video: the folder '\(root)/none' does not exist (it is not created"),
        "\(output.standardError)")
      #expect(!FileManager.default.fileExists(atPath: root + "/none"))
      #expect(!FileManager.default.fileExists(atPath: root + "/o"), "a frame was rendered")
    }
  }

  /// The README's and Watching.md's `render SCENE --video Output/NAME.mp4` failed in a fresh
  /// clone (73, "the folder 'Output' does not exist") although the run makes Output/NAME/.
  @Test("render --video into Output/ without --out: the run makes Output/, as for its frames")
  func videoBesideDefaultFolder() throws {
    let root = try VideoOverwriteTests.makeRoot()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let (code, standardError) = try BuiltArsim.run(
      BuiltArsim.path, ["render", "scene.json", "--video", "Output/video-overwrite.mp4"],
      directory: root)
    #expect(code == 0, "\(standardError)")
    #expect(FileManager.default.fileExists(atPath: root + "/Output/video-overwrite.mp4"))
    #expect(FileManager.default.fileExists(atPath: root + "/Output/video-overwrite/run.json"))
    // Any other missing folder is still refused, and not made.
    let (refused, message) = try BuiltArsim.run(
      BuiltArsim.path, ["render", "scene.json", "--video", "Outptu/v.mp4"], directory: root)
    #expect(refused == 73, "\(message)")
    #expect(message.contains("--video: the folder 'Outptu' does not exist"), "\(message)")
    #expect(!FileManager.default.fileExists(atPath: root + "/Outptu"))
  }

  @Test("render --video naming a folder: 73, the path said once with the reason")
  func videoIsAFolder() throws {
    let root = try VideoOverwriteTests.makeRoot()
    defer { try? FileManager.default.removeItem(atPath: root) }
    try FileManager.default.createDirectory(
      atPath: root + "/v.mp4", withIntermediateDirectories: false)
    let (code, output) = runCommand([
      "render", root + "/scene.json", "--out", root + "/o", "--video", root + "/v.mp4",
    ])
    #expect(code == 73, "\(output.standardError)")
    #expect(
      output.standardError.contains(
        "\(root)/v.mp4: is not a regular file but a folder; refusing to replace it"),
      "\(output.standardError)")
    #expect(output.standardError.components(separatedBy: root + "/v.mp4").count == 2)
    #expect(!FileManager.default.fileExists(atPath: root + "/o"), "a frame was rendered")
  }

  @Test("render --video naming the run's own output folder: 64 before anything is written")
  func videoIsTheOutputFolder() throws {
    let root = try VideoOverwriteTests.makeRoot()
    defer { try? FileManager.default.removeItem(atPath: root) }
    // Before the folder exists (it used to fail with 70 after the lock and the line files
    // were made) and after.
    for spelling in [root + "/o", root + "/o/", root + "/./o"] {
      let (code, output) = runCommand([
        "render", root + "/scene.json", "--out", root + "/o", "--video", spelling,
      ])
      #expect(code == 64, "\(output.standardError)")
      #expect(
        output.standardError.contains("is an output folder of this run; give a file's path"),
        "\(output.standardError)")
      #expect(!FileManager.default.fileExists(atPath: root + "/o"), "the run started")
    }
    try FileManager.default.createDirectory(atPath: root + "/o", withIntermediateDirectories: false)
    let (code, output) = runCommand([
      "render", root + "/scene.json", "--out", root + "/o", "--video", root + "/o",
    ])
    #expect(code == 64, "\(output.standardError)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/o").isEmpty)
  }

  @Test("--video at an output folder's lock file: 64, the lock file left as it is")
  func videoIsALockFile() throws {
    let root = try VideoOverwriteTests.makeRoot()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let (code, output) = runCommand([
      "render", root + "/scene.json", "--out", root + "/o", "--video", root + "/o/.arsim-lock",
    ])
    #expect(code == 64, "\(output.standardError)")
    #expect(output.standardError.contains("would replace an output folder's lock file"))
    #expect(!FileManager.default.fileExists(atPath: root + "/o"))
  }

  @Test("an output file path ending in / is refused before any work: 73 for a folder, else 64")
  func trailingSlash() throws {
    let root = try VideoOverwriteTests.makeRoot()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let folder = root + "/somewhere"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    try Self.writeImageInputs(root)
    let quickDraw = CLIConsistencyTests.quickDraw("raw_cat_24.ndjson")
    let commands: [(String) -> [String]] = [
      { ["render", root + "/scene.json", "--out", root + "/o", "--video", $0] },
      { ["video", root + "/run", $0, "--fps", "10"] },
      { ["track", "convert", root + "/Inputs/track.txt", "--to", "tum", $0] },
      { ["strokes", "from-quickdraw", quickDraw, "--drawing", "0", "--out", $0] },
      { ["compare", root + "/a.png", root + "/a.png", "--diff", $0] },
    ]
    for command in commands {
      // An existing folder, with and without the slash: the writers' own refusal, said first.
      for path in [folder + "/", folder] {
        let (code, output) = runCommand(command(path))
        #expect(code == 73, "\(command(path)): \(output.standardError)")
        #expect(
          output.standardError.contains(
            "\(path): is not a regular file but a folder; refusing to replace it"),
          "\(command(path)): \(output.standardError)")
        // compare used to print its verdict ("ok: …") before failing on --diff.
        #expect(output.standardOutput.isEmpty, "\(command(path)): \(output.standardOutput)")
      }
      let missing = root + "/none/"
      let (code, output) = runCommand(command(missing))
      #expect(code == 64, "\(command(missing)): \(output.standardError)")
      #expect(
        output.standardError.contains("names a folder; give a file's path"),
        "\(command(missing)): \(output.standardError)")
      #expect(!FileManager.default.fileExists(atPath: root + "/none"))
    }
    #expect(!FileManager.default.fileExists(atPath: root + "/o"), "a render started")
  }

  @Test("a video inside the run's own folder, which the run makes, passes the check")
  func insideRunFolder() throws {
    let root = NSTemporaryDirectory() + "arsim-folder-check-\(UUID().uuidString)"
    try refuseMissingOutputFolder(root + "/o/v.mp4", label: "--video", madeByRun: [root + "/o"])
    try refuseMissingOutputFolder(
      root + "/o/A/v.mp4", label: "--video", madeByRun: [root + "/o", root + "/o/A"])
    #expect(throws: (any Error).self) {
      try refuseMissingOutputFolder(root + "/p/v.mp4", label: "--video", madeByRun: [root + "/o"])
    }
    #expect(!FileManager.default.fileExists(atPath: root))
  }

  @Test("a folder that is a file is refused too")
  func folderIsAFile() throws {
    let root = try VideoOverwriteTests.makeRoot()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let (code, output) = runCommand([
      "render", root + "/scene.json", "--out", root + "/o", "--video",
      root + "/scene.json/v.mp4",
    ])
    #expect(code == 73, "\(output.standardError)")
    #expect(output.standardError.contains("the folder '\(root)/scene.json' is not a folder"))
  }

  @Test("video, track convert, strokes --out and compare --diff check their folder first")
  func otherOutputs() throws {
    let root = try VideoOverwriteTests.makeRoot()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let missing = root + "/none"
    try Self.writeImageInputs(root)
    let quickDraw = CLIConsistencyTests.quickDraw("raw_cat_24.ndjson")
    let cases: [([String], String)] = [
      (["video", root + "/run", missing + "/v.mp4", "--fps", "10"], "OUT"),
      (["track", "convert", root + "/Inputs/track.txt", "--to", "tum", missing + "/t.tum"], "OUT"),
      (
        ["strokes", "from-quickdraw", quickDraw, "--drawing", "0", "--out", missing + "/s.jsonl"],
        "--out"
      ),
      (["compare", root + "/a.png", root + "/a.png", "--diff", missing + "/d.png"], "--diff"),
    ]
    for (arguments, label) in cases {
      let (code, output) = runCommand(arguments)
      #expect(code == 73, "\(arguments[0]): \(output.standardError)")
      #expect(
        output.standardError.contains("\(label): the folder '\(missing)' does not exist"),
        "\(arguments[0]): \(output.standardError)")
      #expect(!FileManager.default.fileExists(atPath: missing))
    }
  }

  /// A 242-byte output name failed with `File name too long` when written (after the work; for
  /// `render --video` after every frame): its temporary adds `.arsim-tmp-PID`. Now refused up
  /// front; the longest accepted name (234 bytes) is written.
  @Test("an output name too long for its temporary: 64 before any work; 234 bytes pass")
  func nameTooLong() throws {
    let root = try VideoOverwriteTests.makeRoot()
    defer { try? FileManager.default.removeItem(atPath: root) }
    try Self.writeImageInputs(root)
    let long = root + "/" + String(repeating: "c", count: 238) + ".tum"
    let quickDraw = CLIConsistencyTests.quickDraw("raw_cat_24.ndjson")
    let cases: [([String], String)] = [
      (["track", "convert", root + "/Inputs/track.txt", "--to", "tum", long], "OUT"),
      (["strokes", "from-quickdraw", quickDraw, "--drawing", "0", "--out", long], "--out"),
      (["video", root + "/run", long, "--fps", "10"], "OUT"),
      (["render", root + "/scene.json", "--out", root + "/o", "--video", long], "--video"),
    ]
    for (arguments, label) in cases {
      let (code, output) = runCommand(arguments)
      #expect(code == 64, "\(arguments[0]): \(output.standardError)")
      #expect(
        output.standardError.contains("\(label) '\(long)': its name is 242 bytes long")
          && output.standardError.contains("at most 234 bytes"),
        "\(arguments[0]): \(output.standardError)")
      #expect(!FileManager.default.fileExists(atPath: long))
      #expect(!FileManager.default.fileExists(atPath: root + "/o"), "a frame was rendered")
    }
    let longest = root + "/" + String(repeating: "c", count: 230) + ".tum"
    let (code, output) = runCommand([
      "track", "convert", root + "/Inputs/track.txt", "--to", "tum", longest,
    ])
    #expect(code == 0, "\(output.standardError)")
    #expect(FileManager.default.fileExists(atPath: longest))
  }

  /// `root/a.png` (compare's input) and `root/run/frame_00000.png` (a folder `arsim video`
  /// reads).
  static func writeImageInputs(_ root: String) throws {
    let image = Image(width: 4, height: 4, fill: (1, 2, 3, 255))
    try image.writePNG(to: root + "/a.png")
    try FileManager.default.createDirectory(
      atPath: root + "/run", withIntermediateDirectories: true)
    try image.writePNG(to: root + "/run/frame_00000.png")
  }
}
