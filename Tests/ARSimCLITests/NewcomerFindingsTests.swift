import ARRender
import ARTestSupport
import Foundation
import Testing

@testable import ARSimCLI

/// Inputs a newcomer tried that used to write into `/`, crash, overwrite an input or fail
/// with an unclear message.
@Suite("CLI inputs found by the newcomer test")
final class NewcomerFindingsTests {
  private let temporary = TemporaryFolder("newcomer")
  var root: String { temporary.path }

  // Each test gets its own instance: its folder goes when the test ends.
  deinit { temporary.remove() }

  @Test(
    "an empty option value is a usage error",
    arguments: [
      ["render", "scene.json", "--out", ""], ["render", "scene.json", "--out="],
      ["bench", "B3", "--out", ""], ["compare", "a.png", "b.png", "--diff", ""],
    ])
  func emptyValue(arguments: [String]) {
    let (code, output) = runCommand(arguments)
    #expect(code == 64)
    #expect(output.standardError.contains("needs a non-empty value"))
  }

  @Test("a scene that is an endless device is refused as not a regular file, without reading")
  func endlessScene() {
    let (code, output) = runCommand(["render", "/dev/zero"])
    #expect(code == 66)
    #expect(
      output.standardError.contains("/dev/zero: is not a regular file but a character device"))
  }

  @Test("FileIO.read stops at its limit")
  func readLimit() throws {
    let path = root + "/five.txt"
    try FileIO.writeAtomically(Array("12345".utf8), to: path)
    #expect(try FileIO.read(path, maximumBytes: 5) == Array("12345".utf8))
    #expect(throws: InputError.self) { try FileIO.read(path, maximumBytes: 4) }
  }

  @Test("compare refuses a --diff path that is one of its inputs or inside one")
  func diffOverInput() throws {
    let a = root + "/a.png"
    try Image(width: 2, height: 2).writePNG(to: a)
    try FileManager.default.createDirectory(
      atPath: root + "/frames", withIntermediateDirectories: true)
    try Image(width: 2, height: 2).writePNG(to: root + "/frames/f.png")
    // The input itself is "overwritten"; a path inside an input folder is said to be inside
    // (nothing there would be overwritten: a newcomer's finding).
    for (arguments, reason) in [
      (["compare", a, a, "--diff", a], "would overwrite the input"),
      (
        ["compare", root + "/frames", root + "/frames", "--diff", root + "/frames"],
        "would overwrite the input"
      ),
      (
        ["compare", root + "/frames", root + "/frames", "--diff", root + "/frames/report"],
        "is inside the input '\(root)/frames'; choose a path outside it"
      ),
    ] {
      let before = try FileIO.read(a)
      let (code, output) = runCommand(arguments)
      #expect(code == 64, "\(arguments)")
      #expect(output.standardError.contains(reason), "\(output.standardError)")
      #expect(try FileIO.read(a) == before)
    }
    #expect(!FileManager.default.fileExists(atPath: root + "/frames/report"))
  }

  @Test("two folders without PNG files are missing input, not a pass")
  func emptyFolders() throws {
    for name in ["expected", "actual"] {
      try FileManager.default.createDirectory(
        atPath: root + "/" + name, withIntermediateDirectories: true)
    }
    let (code, output) = runCommand(["compare", root + "/expected", root + "/actual"])
    #expect(code == 66)
    #expect(output.standardError.contains("no PNG files"))
  }

  @Test("bench: supersampling above the scene format's 8 is a usage error")
  func benchSupersampling() {
    let (code, output) = runCommand(["bench", "B3", "--frames", "1", "--supersampling", "9"])
    #expect(code == 64)
    #expect(output.standardError.contains("--supersampling '9': expected an integer in 1…8"))
  }

  @Test("bench: more frames than the track holds names the track and the limit")
  func benchTooManyFrames() throws {
    // ARKit data-logger rows (nanosecond time stamp, 3 × 4 pose, rows): three poses 0.1 s
    // apart, so 0.2 s holds frames 0…6 at 30 frames/s.
    let track = root + "/short.txt"
    let rows = (0..<3).map { i in "\(i * 100_000_000) 1 0 0 0 0 1 0 0 0 0 1 0" }
    try FileIO.writeAtomically(Array((rows.joined(separator: "\n") + "\n").utf8), to: track)
    let (code, output) = runCommand([
      "bench", "B3", "--frames", "8", "--track", track, "--out", root + "/bench",
    ])
    #expect(code == 65, "\(output.standardError)")
    #expect(output.standardError.contains(track))
    #expect(output.standardError.contains("enough for 7 benchmark frames"))
  }

  @Test("bench: an --out that is a file cannot be created (73) with a plain message")
  func benchOutIsFile() throws {
    let file = root + "/file"
    try FileIO.writeAtomically([1], to: file)
    let (code, output) = runCommand(["bench", "B3", "--frames", "1", "--out", file])
    #expect(code == 73, "\(output.standardError)")
    #expect(!output.standardError.contains("NSCocoaErrorDomain"))
  }

  @Test("bench without --out writes into a new private folder and removes it afterwards")
  func benchPrivateFolder() throws {
    let track = root + "/short.txt"
    let rows = (0..<3).map { i in "\(i * 100_000_000) 1 0 0 0 0 1 0 0 0 0 1 0" }
    try FileIO.writeAtomically(Array((rows.joined(separator: "\n") + "\n").utf8), to: track)
    for frames in ["1", "8"] {  // a finished run, and one that fails (the track is too short)
      let (code, output) = runCommand(["bench", "B3", "--frames", frames, "--track", track])
      #expect(code == (frames == "1" ? 0 : 65), "\(output.standardError)")
      let line = output.standardOutput.split(separator: "\n").first {
        $0.hasPrefix("bench: writing into ")
      }
      let folder = line.map { String($0.dropFirst(20).prefix { $0 != " " }) } ?? ""
      #expect(folder.contains("/arsim-bench-"), "\(output.standardOutput)")
      #expect(folder != "/tmp/arsim-bench")
      #expect(!folder.isEmpty && !FileManager.default.fileExists(atPath: folder))
    }
  }

  @Test(
    "render --strokes-port with an option only file renders take names it as such (64)",
    arguments: [
      "--hud", "--report", "--helper-view", "--video=v.mp4", "--shard", "--participant",
      "--debug", "--video-timeout",
    ])
  func liveRenderRefusesFileOptions(option: String) {
    var arguments = ["render", "scene.json", "--strokes-port", "0", option]
    if !option.contains("="), !["--hud", "--report", "--helper-view"].contains(option) {
      arguments.append("x")
    }
    let (code, output) = runCommand(arguments)
    let name = String(option.prefix { $0 != "=" })
    #expect(code == 64, "\(output.standardError)")
    #expect(
      output.standardError.contains("\(name) does not combine with --strokes-port"),
      "\(output.standardError)")
    #expect(!output.standardError.contains("unknown option"))
  }

  @Test("arsim report on a file says it is a file, not a folder (66)")
  func reportOnFile() throws {
    let file = root + "/trace.jsonl"
    try FileIO.writeAtomically(Array("{}\n".utf8), to: file)
    let (code, output) = runCommand(["report", file])
    #expect(code == 66, "\(output.standardError)")
    #expect(
      output.standardError.contains("trace.jsonl: is a file, not an output folder"),
      "\(output.standardError)")
  }
}
