import ARRender
import ARTestSupport
import Foundation
import Testing

@testable import ARSimCLI

@Suite("arsim compare")
final class CompareCommandTests {
  private let temporary = TemporaryFolder("compare")
  var root: String { temporary.path }

  // Each test gets its own instance: its folder goes when the test ends.
  deinit { temporary.remove() }

  static func image(change: (Int, Int, (UInt8, UInt8, UInt8, UInt8))? = nil) -> Image {
    var image = Image(width: 8, height: 6, fill: (30, 60, 90, 255))
    image[2, 2] = (200, 200, 200, 255)
    if let change { image[change.0, change.1] = change.2 }
    return image
  }

  func write(_ image: Image, _ name: String) throws -> String {
    let path = root + "/" + name
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try image.writePNG(to: path)
    return path
  }

  func run(_ arguments: [String]) -> (Int32, CapturedOutput) {
    runCommand(["compare"] + arguments)
  }

  @Test("identical files exit 0")
  func identicalFiles() throws {
    let a = try write(Self.image(), "a.png")
    let b = try write(Self.image(), "b.png")
    let (code, output) = run([a, b])
    #expect(code == 0)
    #expect(output.standardOutput.contains("ok: 0 of 48 pixels differ"))
  }

  @Test("a changed pixel exits 1 unless the tolerance allows it")
  func changedPixel() throws {
    let a = try write(Self.image(), "a.png")
    let b = try write(Self.image(change: (5, 4, (255, 0, 0, 255))), "b.png")
    let (code, output) = run([a, b])
    #expect(code == 1)
    #expect(output.standardOutput.contains("DIFFERENT: 1 of 48 pixels differ (2.0833%)"))
    #expect(output.standardOutput.contains("bounding box (5, 4)–(5, 4)"))
    #expect(run([a, b, "--max-diff-pixels", "1"]).0 == 0)
    #expect(run([a, b, "--max-diff-fraction", "0.03"]).0 == 0)
    #expect(run([a, b, "--max-diff-fraction", "0.02"]).0 == 1)
  }

  @Test("a change below the perceptual threshold passes unless --exact")
  func belowThreshold() throws {
    let a = try write(Self.image(), "a.png")
    let b = try write(Self.image(change: (5, 4, (31, 60, 90, 255))), "b.png")
    #expect(run([a, b]).0 == 0)
    #expect(run([a, b, "--exact"]).0 == 1)
    #expect(run([a, b, "--threshold", "0"]).0 == 1)
  }

  @Test("different sizes exit 1")
  func sizeMismatch() throws {
    let a = try write(Self.image(), "a.png")
    let b = try write(Image(width: 6, height: 8), "b.png")
    let (code, output) = run([a, b])
    #expect(code == 1)
    #expect(output.standardOutput.contains("size differs, expected 8×6, actual 6×8"))
  }

  @Test("a missing file exits 66 and an unreadable PNG 65")
  func missingAndUnreadable() throws {
    let a = try write(Self.image(), "a.png")
    let missing = run([a, root + "/nope.png"])
    #expect(missing.0 == 66)
    #expect(missing.1.standardError.contains("nope.png"))
    let corrupt = root + "/corrupt.png"
    try Data("not a png".utf8).write(to: URL(fileURLWithPath: corrupt))
    let unreadable = run([a, corrupt])
    #expect(unreadable.0 == 65)
    #expect(unreadable.1.standardError.contains("corrupt.png: invalid PNG"))
  }

  @Test(
    "usage mistakes exit 64",
    arguments: [
      [], ["only-one.png"], ["a", "b", "--threshold", "2"], ["a", "b", "--max-diff-pixels", "-1"],
      ["a", "b", "--max-diff-pixels", "1", "--max-diff-fraction", "0.1"],
      ["a", "b", "--exact", "--threshold", "0.2"], ["a", "b", "--frobnicate"],
      ["a", "b", "--diff"],
      // Decimal only: Double("0x1") is 1 (a newcomer's finding), "0x.8p1" too.
      ["a", "b", "--threshold", "0x1"], ["a", "b", "--max-diff-fraction", "0x.8p-1"],
    ])
  func usage(arguments: [String]) {
    #expect(run(arguments).0 == 64)
  }

  @Test("--help prints the usage and exits 0")
  func help() {
    let (code, output) = run(["--help"])
    #expect(code == 0)
    #expect(output.standardOutput.hasPrefix("USAGE: arsim compare EXPECTED ACTUAL"))
  }

  @Test("a file and a folder cannot be compared")
  func fileAndFolder() throws {
    let a = try write(Self.image(), "a.png")
    #expect(run([a, root]).0 == 64)
  }

  @Test("--diff writes the diff PNG with the differing pixel in red")
  func diffFile() throws {
    let a = try write(Self.image(), "a.png")
    let b = try write(Self.image(change: (5, 4, (255, 0, 0, 255))), "b.png")
    let out = root + "/diff.png"
    #expect(run([a, b, "--diff", out]).0 == 1)
    let diff = try Image(contentsOfPNG: out)
    #expect(diff[5, 4] == (255, 0, 0, 255))
    #expect(diff[0, 0].r == diff[0, 0].g && diff[0, 0].r > 200)
  }

  @Test("--diff on matching files still writes the diff PNG (all grey), as the usage says")
  func diffFileWhenMatching() throws {
    let a = try write(Self.image(), "a.png")
    let b = try write(Self.image(), "b.png")
    let out = root + "/same.png"
    let (code, output) = run([a, b, "--diff", out])
    #expect(code == 0)
    #expect(output.standardOutput.contains("diff: \(out)"))
    let diff = try Image(contentsOfPNG: out)
    #expect(diff.width == 8 && diff.height == 6)
    #expect(diff[2, 2].r == diff[2, 2].g && diff[2, 2].g == diff[2, 2].b)
    let usage = run(["--help"]).1.standardOutput
    #expect(usage.contains("--diff OUT writes the diff image as a PNG at OUT"))
    #expect(usage.contains("also when they match; not\nwhen their sizes differ"))
  }

  @Test("folders: the first 10 failing frames and the summary; --verbose lists every one")
  func foldersShortByDefault() throws {
    for index in 0..<15 {
      let name = String(format: "frame_%05d.png", index)
      _ = try write(Self.image(), "expected/" + name)
      _ = try write(Self.image(change: (1, 1, (0, 0, 0, 255))), "actual/" + name)
    }
    _ = try write(Self.image(), "expected/frame_00015.png")
    _ = try write(Self.image(), "actual/frame_00015.png")
    let arguments = [root + "/expected", root + "/actual", "--diff", root + "/report"]
    let (code, output) = run(arguments)
    #expect(code == 1)
    let lines = output.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.filter { $0.contains(": DIFFERENT: ") }.count == 10, "\(lines)")
    #expect(lines.first?.hasPrefix("frame_00000.png: DIFFERENT: 1 of 48 pixels differ") == true)
    #expect(lines[9].hasPrefix("frame_00009.png: DIFFERENT"), "\(lines)")
    #expect(lines.contains("… and 5 more failing frames (--verbose lists them all)"))
    #expect(lines.contains("16 frames: 1 same, 15 different, 0 missing, 0 extra, 0 unreadable"))
    #expect(lines.count == 13, "\(lines)")  // 10 frames, the rest, the summary, the report
    let (verboseCode, verbose) = run(arguments + ["--verbose"])
    #expect(verboseCode == 1)
    let all = verbose.standardOutput.split(separator: "\n")
    #expect(all.filter { $0.contains(": DIFFERENT: ") }.count == 15)
    #expect(!verbose.standardOutput.contains("more failing frames"))
  }

  @Test("folders: report.html's table lists the failing frames first")
  func reportFailingFirst() throws {
    for index in 0..<3 {
      let name = String(format: "frame_%05d.png", index)
      _ = try write(Self.image(), "expected/" + name)
      _ = try write(
        index == 2 ? Self.image(change: (1, 1, (0, 0, 0, 255))) : Self.image(), "actual/" + name)
    }
    let out = root + "/report"
    #expect(run([root + "/expected", root + "/actual", "--diff", out]).0 == 1)
    let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
    let failing = try #require(html.range(of: "<a href=\"#frame_00002.png\">"))
    let passing = try #require(html.range(of: "<td>frame_00000.png</td>"))
    #expect(failing.lowerBound < passing.lowerBound)
  }

  @Test("folders: pairs by name, reports missing and extra files, writes report.html")
  func folders() throws {
    _ = try write(Self.image(), "expected/frame_00000.png")
    _ = try write(Self.image(), "expected/frame_00001.png")
    _ = try write(Self.image(), "expected/frame_00002.png")
    _ = try write(Self.image(), "actual/frame_00000.png")
    _ = try write(Self.image(change: (1, 1, (0, 0, 0, 255))), "actual/frame_00001.png")
    _ = try write(Self.image(), "actual/frame_00003.png")
    let out = root + "/report"
    let (code, output) = run([root + "/expected", root + "/actual", "--diff", out])
    #expect(code == 1)
    let text = output.standardOutput
    #expect(text.contains("frame_00001.png: DIFFERENT: 1 of 48 pixels differ"))
    #expect(text.contains("frame_00002.png: missing in ACTUAL"))
    #expect(text.contains("frame_00003.png: extra in ACTUAL (no reference)"))
    #expect(text.contains("4 frames: 1 same, 1 different, 1 missing, 1 extra, 0 unreadable"))
    #expect(text.contains("report: \(out)/report.html"))
    let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
    #expect(html.contains("<img src=\"expected/frame_00001.png\""))
    #expect(html.contains("<img src=\"actual/frame_00001.png\""))
    #expect(html.contains("<img src=\"diff/frame_00001.png\""))
    #expect(html.contains("missing in ACTUAL"))
    #expect(html.contains("extra in ACTUAL"))
    #expect(!html.contains("expected/frame_00000.png"))  // passing frames get no images
    #expect(try Image(contentsOfPNG: out + "/expected/frame_00001.png") == Self.image())
    let diff = try Image(contentsOfPNG: out + "/diff/frame_00001.png")
    #expect(diff[1, 1] == (255, 0, 0, 255))
  }

  @Test("folders: a small difference in a large frame gets an enlarged close-up beside the images")
  func zoomedCloseUp() throws {
    // 1920 × 1440 grey frames; the actual has a 24 × 15 px white block at (1000, 700).
    let grey = Image(width: 1920, height: 1440, fill: (90, 90, 90, 255))
    var changed = grey
    for v in 700..<715 { for u in 1000..<1024 { changed[u, v] = (255, 255, 255, 255) } }
    _ = try write(grey, "expected/frame_00000.png")
    _ = try write(changed, "actual/frame_00000.png")
    let out = root + "/report"
    let (code, output) = run([root + "/expected", root + "/actual", "--diff", out])
    #expect(code == 1, "\(output.standardError)")
    // Crop = box ± 8 px: u 992…1031 (40 px), v 692…722 (31 px); factor ⌊480 / 40⌋ = 12.
    let zoomed = try Image(contentsOfPNG: out + "/zoom/actual/frame_00000.png")
    #expect(zoomed.width == 40 * 12 && zoomed.height == 31 * 12)
    #expect(zoomed[0, 0] == (90, 90, 90, 255))  // margin: source (992, 692)
    #expect(zoomed[8 * 12, 8 * 12] == (255, 255, 255, 255))  // source (1000, 700)
    #expect(zoomed[8 * 12 - 1, 8 * 12] == (90, 90, 90, 255))  // source (999, 700)
    #expect(zoomed[32 * 12 - 1, 23 * 12 - 1] == (255, 255, 255, 255))  // source (1023, 714)
    #expect(zoomed[32 * 12, 23 * 12 - 1] == (90, 90, 90, 255))  // source (1024, 714)
    let expectedZoom = try Image(contentsOfPNG: out + "/zoom/expected/frame_00000.png")
    #expect(expectedZoom == Image(width: 480, height: 372, fill: (90, 90, 90, 255)))
    let diffZoom = try Image(contentsOfPNG: out + "/zoom/diff/frame_00000.png")
    #expect(diffZoom[8 * 12, 8 * 12] == (255, 0, 0, 255))
    let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
    #expect(html.contains("<img src=\"zoom/expected/frame_00000.png\""))
    #expect(html.contains("<img src=\"zoom/actual/frame_00000.png\""))
    #expect(html.contains("<img src=\"zoom/diff/frame_00000.png\""))
    #expect(html.contains("(992, 692)–(1031, 722)"))
    #expect(html.contains("×12"))
  }

  @Test("folders: participant subfolders are compared too, paired by their relative paths")
  func participantFolders() throws {
    for participant in ["A", "B"] {
      _ = try write(Self.image(), "expected/\(participant)/frame_00000.png")
      _ = try write(Self.image(), "actual/\(participant)/frame_00000.png")
    }
    _ = try write(Self.image(change: (3, 4, (0, 0, 0, 255))), "actual/B/frame_00000.png")
    _ = try write(Self.image(), "expected/C/frame_00000.png")
    let out = root + "/report"
    let (code, output) = run([root + "/expected", root + "/actual", "--diff", out])
    #expect(code == 1)
    let text = output.standardOutput
    #expect(text.contains("B/frame_00000.png: DIFFERENT: 1 of 48 pixels differ"))
    #expect(text.contains("C/frame_00000.png: missing in ACTUAL"))
    #expect(text.contains("3 frames: 1 same, 1 different, 1 missing, 0 extra, 0 unreadable"))
    #expect(try Image(contentsOfPNG: out + "/diff/B/frame_00000.png")[3, 4] == (255, 0, 0, 255))
    let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
    #expect(html.contains("diff/B/frame_00000.png"))
  }

  @Test("folders without --diff: nothing written when all match, <ACTUAL>-compare otherwise")
  func defaultReportFolder() throws {
    _ = try write(Self.image(), "e/frame.png")
    _ = try write(Self.image(), "a/frame.png")
    #expect(run([root + "/e", root + "/a/"]).0 == 0)
    #expect(!FileManager.default.fileExists(atPath: root + "/a-compare"))
    _ = try write(Self.image(change: (0, 0, (255, 255, 255, 255))), "a/frame.png")
    #expect(run([root + "/e", root + "/a/"]).0 == 1)
    #expect(FileManager.default.fileExists(atPath: root + "/a-compare/report.html"))
    // ACTUAL spelled with a trailing `.` (as `compare ../e .` from inside it): still beside
    // it, not inside (a newcomer's finding: `a/.-compare/`).
    try FileManager.default.removeItem(atPath: root + "/a-compare")
    #expect(run([root + "/e", root + "/a/."]).0 == 1)
    #expect(FileManager.default.fileExists(atPath: root + "/a-compare/report.html"))
    #expect(!FileManager.default.fileExists(atPath: root + "/a/.-compare"))
  }

  /// A newcomer's finding: with the inputs at DIFF/expected and DIFF/actual, the failing
  /// frame's copies overwrote an input (Goldens.md: --diff never overwrites an input).
  @Test(
    "a --diff folder whose report parts are or hold an input is refused (64) before any write",
    arguments: [
      ("g/actual", "g/expected", "g/expected"), ("g/expected", "g/actual", "g/expected"),
      ("g/zoom/diff/e", "a", "g/zoom/diff/e"),
    ])
  func diffFolderHoldsInputs(expected: String, actual: String, named: String) throws {
    let reference = try write(Self.image(), expected + "/frame_00121.png")
    _ = try write(Self.image(change: (0, 0, (255, 255, 255, 255))), actual + "/frame_00121.png")
    let before = try Data(contentsOf: URL(fileURLWithPath: reference))
    let (code, output) = run([root + "/" + expected, root + "/" + actual, "--diff", root + "/g"])
    #expect(code == 64, "\(output.standardError)")
    #expect(
      output.standardError.contains(
        "--diff '\(root)/g' would write into the input '\(root)/\(named)'"),
      "\(output.standardError)")
    #expect(output.standardOutput.isEmpty)
    #expect(try Data(contentsOf: URL(fileURLWithPath: reference)) == before)
    #expect(!FileManager.default.fileExists(atPath: root + "/g/report.html"))
  }

  @Test("a --diff folder that is a file is refused (73) before comparing anything")
  func diffFolderIsAFile() throws {
    _ = try write(Self.image(), "e/frame.png")
    _ = try write(Self.image(change: (0, 0, (255, 255, 255, 255))), "a/frame.png")
    try Data("keep\n".utf8).write(to: URL(fileURLWithPath: root + "/keep.txt"))
    let (code, output) = run([root + "/e", root + "/a", "--diff", root + "/keep.txt"])
    #expect(code == 73, "\(output.standardError)")
    #expect(
      output.standardError.contains(
        "keep.txt: --diff names the folder of the report, but it is not a folder"),
      "\(output.standardError)")
    #expect(output.standardOutput.isEmpty, "\(output.standardOutput)")
    #expect(try String(contentsOfFile: root + "/keep.txt", encoding: .utf8) == "keep\n")
  }

  @Test("a report folder that cannot be written: the verdict is printed, then 73")
  func verdictBeforeReportFailure() throws {
    _ = try write(Self.image(), "e/frame.png")
    _ = try write(Self.image(change: (0, 0, (255, 255, 255, 255))), "a/frame.png")
    // The default report folder's name taken by a file: found only once a frame fails.
    try Data().write(to: URL(fileURLWithPath: root + "/a-compare"))
    let (code, output) = run([root + "/e", root + "/a"])
    #expect(code == 73, "\(output.standardError)")
    #expect(
      output.standardOutput.contains("frame.png: DIFFERENT"), "\(output.standardOutput)")
    #expect(
      output.standardOutput.contains("1 frame: 0 same, 1 different"), "\(output.standardOutput)")
  }

  @Test("a corrupt PNG in a folder exits 65 after comparing the rest")
  func corruptInFolder() throws {
    _ = try write(Self.image(), "e/good.png")
    _ = try write(Self.image(), "a/good.png")
    _ = try write(Self.image(), "e/bad.png")
    try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: root + "/a/bad.png"))
    let (code, output) = run([root + "/e", root + "/a"])
    #expect(code == 65)
    #expect(output.standardOutput.contains("bad.png: \(root)/a/bad.png: invalid PNG"))
    #expect(output.standardOutput.contains("2 frames: 1 same, 0 different"))
  }

  @Test("depth maps are counted apart from frames")
  func depthMapsCountedApart() throws {
    for folder in ["e", "a"] {
      _ = try write(Self.image(), "\(folder)/frame_00000.png")
      _ = try write(Self.image(), "\(folder)/depth_00000.png")
      _ = try write(Self.image(), "\(folder)/B/frame_00000.png")
    }
    let (code, output) = run([root + "/e", root + "/a"])
    #expect(code == 0)
    #expect(
      output.standardOutput.contains("3 images (2 frames, 1 depth map): 3 same, 0 different"),
      "\(output.standardOutput)")
  }

  @Test("HTML escaping and URL encoding of names")
  func escaping() {
    #expect(CompareCommand.escape("a<b>&\"c") == "a&lt;b&gt;&amp;&quot;c")
    #expect(CompareCommand.percentEncode("frame 1#.png") == "frame%201%23.png")
  }
}
