import ARReport
import ARTestSupport
import Foundation
import Testing

/// `arsim report` on a folder named by one character, as a user types it from the parent or
/// from inside (`report y`, `report .`): Foundation's path methods trapped (SIGILL) on such
/// names, after the frames were written (a newcomer's finding). The built binary, in a
/// process of its own, so that the test can set the working folder.
@Suite struct ReportFolderNameTests {
  @Test("report y from its parent and report . from inside write report.html and exit 0")
  func oneCharacterFolder() throws {
    let arsim = BuiltArsim.path
    try #require(FileManager.default.fileExists(atPath: arsim), "build arsim first: \(arsim)")
    let source = try RenderedRun.folder.get()
    let temporary = TemporaryFolder("report-name")
    defer { temporary.remove() }
    let folder = temporary.path + "/y"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for name in ["run.json", "trace.jsonl", "events.jsonl", "frame_00000.png"] {
      try FileManager.default.copyItem(atPath: source + "/" + name, toPath: folder + "/" + name)
    }
    for (directory, argument) in [(temporary.path, "y"), (folder, ".")] {
      try? FileManager.default.removeItem(atPath: folder + "/report.html")
      let (status, _) = try BuiltArsim.run(arsim, ["report", argument], directory: directory)
      #expect(status == 0, "report \(argument)")
      #expect(FileManager.default.fileExists(atPath: folder + "/report.html"), "report \(argument)")
    }
  }
}

/// Frames the contact sheet cannot read are notes (printed by `arsim report`) and are not
/// counted as thumbnails (a newcomer's finding: "31 thumbnails" with 3 of them unreadable and
/// no note on the terminal).
@Suite struct ReportUnreadableFrameTests {
  @Test("three truncated frames: one note naming them and the reader's reason; 28 thumbnails")
  func truncatedFrames() throws {
    let source = try RenderedRun.folder.get()
    let temporary = TemporaryFolder("report-unreadable")
    defer { temporary.remove() }
    let folder = temporary.path + "/run"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for name in ["run.json", "trace.jsonl", "events.jsonl"] {
      try FileManager.default.copyItem(atPath: source + "/" + name, toPath: folder + "/" + name)
    }
    // 31 frames (all shown: at most 60 are sampled), three cut to half their bytes.
    for frame in 0...30 {
      let name = String(format: "frame_%05d.png", frame)
      let bytes = try Data(contentsOf: URL(fileURLWithPath: source + "/" + name))
      try ([1, 2, 3].contains(frame) ? bytes.prefix(bytes.count / 2) : bytes)
        .write(to: URL(fileURLWithPath: folder + "/" + name))
    }
    let summary = try ReplayReport().write(directory: folder)
    #expect(summary.thumbnails == 28)
    let notes = summary.notes.filter { $0.contains("unreadable") }
    #expect(notes.count == 1, "\(summary.notes)")
    #expect(
      notes.first?.hasPrefix(
        "frame_00001.png, frame_00002.png, frame_00003.png: 3 sampled frames unreadable") == true,
      "\(notes)")
    #expect(notes.first?.contains("truncated") == true, "\(notes)")
  }
}
