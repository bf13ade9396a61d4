import ARTestSupport
import Foundation
import Testing

/// `render --hud` with `ARSIM_HUD_FONT` naming a bad font: the built `arsim` in a process of
/// its own, since the variable is read from the process environment.
@Suite("render --hud with a bad ARSIM_HUD_FONT")
struct HeadsUpDisplayFontTests {
  let folder = TemporaryFolder("hud-font")

  func render(font: String) throws -> (Int32, String) {
    let arsim = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("arsim").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arsim)
    process.arguments = [
      "render", Fixtures.repositoryPath("Scenes/tum-desk-circle.json"), "--frames", "0",
      "--out", folder.path + "/out", "--hud",
    ]
    process.environment = ["PATH": "/usr/bin:/bin", "ARSIM_HUD_FONT": font]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    try process.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
  }

  @Test("a file FreeType cannot read is bad data (65) naming the file, not a missing tool")
  func corruptFont() throws {
    defer { folder.remove() }
    let font = folder.path + "/broken.ttf"
    try Data("not a font at all\n".utf8).write(to: URL(fileURLWithPath: font))
    let (status, text) = try render(font: font)
    #expect(status == 65, "\(text)")
    #expect(text.contains("broken.ttf") && text.contains("FreeType cannot read this font"))
  }

  @Test("a named font that does not exist says so (it read as DejaVu missing there)")
  func missingNamedFont() throws {
    defer { folder.remove() }
    let (status, text) = try render(font: folder.path + "/nothere.ttf")
    #expect(status == 69, "\(text)")
    #expect(text.contains("ARSIM_HUD_FONT names") && text.contains("nothere.ttf"))
    #expect(!text.contains("DejaVu Sans is not at"))
  }
}
