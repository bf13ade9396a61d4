import ARFormats
import ARRemoteAssist
import ARRender
import ARReplay
import ARSimCLI
import ARSupport
import ARTestSupport
import Foundation
import Testing

/// A render never truncates one of its inputs, and a failed or interrupted run leaves a folder
/// whose run.json and lines describe only published frames (Documentation/Robustness.md).
@Suite("render output folder safety")
struct ReplayOutputSafetyTests {
  /// A 5-frame scene (10 frames/s for 0.5 s) reading `track` and `strokes`.
  static func scene(track: String, strokes: String, depth: Bool = false) -> String {
    """
    {"name": "safety", "track": {"path": "\(track)", "format": "json"},
     "output": {"width": 32, "height": 24, "fps": 10, "depth": \(depth)}, "duration": 0.4,
     "background": {"color": [0.5, 0.5, 0.5]},
     "remoteAssist": {"strokes": "\(strokes)", "mode": "corrected"}}
    """
  }

  /// A fixture with `out/` made and a stroke log of the fixture's Quick, Draw! cat.
  static func fixture() throws -> (ReplayFixture, strokes: String) {
    let fixture = try ReplayFixture()
    try FileManager.default.createDirectory(
      atPath: fixture.directory + "/out", withIntermediateDirectories: true)
    let drawing = try QuickDrawDrawing.read(
      path: Fixtures.path("quickdraw/raw_cat_24.ndjson"), index: 0)
    return (fixture, StrokeLog(messages: HelperSimulation().messages(for: drawing)).jsonLines)
  }

  /// `fixture()` with its track, stroke log and scene (`scene.json`) written.
  static func sceneFixture(depth: Bool = false) throws -> ReplayFixture {
    let (fixture, strokes) = try fixture()
    try fixture.writeTrack("track.json", [(0, .identity), (2, .identity)])
    try fixture.write("strokes.jsonl", strokes)
    try fixture.write(
      "scene.json", scene(track: "track.json", strokes: "strokes.jsonl", depth: depth))
    return fixture
  }

  /// Runs the fixture's `scene.json` into `out` on one render thread, expecting the
  /// `InputError` it must stop with (an issue is recorded when it does not throw one).
  static func failingRun(_ fixture: ReplayFixture, out: String, pipelined: Bool) throws
    -> InputError?
  {
    let scene = try ReplayScene.load(path: fixture.directory + "/scene.json", registry: .builtIn)
    var options = ReplayOptions(outputDirectory: out, threads: 1)
    options.pipelined = pipelined
    return #expect(throws: InputError.self) { try Replay(scene: scene).run(options) }
  }

  func render(_ arguments: [String]) -> (Int32, String) {
    let captured = CapturedOutput()
    let code = ARSimCLI.run(
      arguments: ["render"] + arguments,
      output: captured.output)
    return (code, captured.standardError)
  }

  @Test(
    "render refuses an output folder where an input has an output's name",
    arguments: ["out/events.jsonl", "out/trace.jsonl", "out/run.json"])
  func inputUnderOutputName(input: String) throws {
    let (fixture, strokes) = try Self.fixture()
    defer { fixture.remove() }
    let d = fixture.directory
    try fixture.writeTrack("track.json", [(0, .identity), (2, .identity)])
    try fixture.write("strokes.jsonl", strokes)
    var scenePath = d + "/scene.json"
    switch input {
    case "out/events.jsonl":
      try fixture.write("out/events.jsonl", strokes)
      try fixture.write("scene.json", Self.scene(track: "track.json", strokes: input))
    case "out/trace.jsonl":
      try FileManager.default.moveItem(atPath: d + "/track.json", toPath: d + "/" + input)
      try fixture.write("scene.json", Self.scene(track: input, strokes: "strokes.jsonl"))
    default:
      scenePath = d + "/" + input
      try fixture.write(input, Self.scene(track: "../track.json", strokes: "../strokes.jsonl"))
    }
    let before = try FileIO.read(d + "/" + input)
    for out in [d + "/out", d + "/./out/"] {
      let (code, message) = render([scenePath, "--out", out])
      #expect(code == 64, "\(message)")
      #expect(message.contains("would overwrite the input"), "\(message)")
      #expect(message.contains((input as NSString).lastPathComponent), "\(message)")
      #expect(try FileIO.read(d + "/" + input) == before)
      #expect(!FileManager.default.fileExists(atPath: d + "/out/frame_00000.png"))
    }
  }

  @Test(
    "a frame that cannot be committed takes its lines back; a stale run.json is gone",
    arguments: [false, true])
  func failedCommit(pipelined: Bool) throws {
    let fixture = try Self.sceneFixture(depth: true)
    defer { fixture.remove() }
    let out = fixture.directory + "/out"
    try fixture.write("out/run.json", "{\"framesWritten\": [0, 1, 2, 3, 4]}\n")
    try FileManager.default.createDirectory(
      atPath: out + "/frame_00002.png", withIntermediateDirectories: false)
    let error = try Self.failingRun(fixture, out: out, pipelined: pipelined)
    #expect(error?.kind == .cannotCreate)
    #expect(error?.location.file == out + "/frame_00002.png")
    #expect(error?.reason.contains("is not a regular file") == true)
    #expect(!FileManager.default.fileExists(atPath: out + "/run.json"))
    #expect(try fixture.jsonLines("trace.jsonl").map { $0["frame"] as? Int } == [0, 1])
    #expect(try fixture.jsonLines("events.jsonl").allSatisfy { ($0["frame"] as? Int ?? 9) < 2 })
    let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
    #expect(
      names == [
        ".arsim-lock", "depth_00000.png", "depth_00001.png", "events.jsonl", "frame_00000.png",
        "frame_00001.png", "frame_00002.png", "trace.jsonl",
      ])
  }

  @Test(
    "a frame whose temporary file cannot be written publishes nothing; later frames' go",
    arguments: [false, true])
  func failedStaging(pipelined: Bool) throws {
    let fixture = try Self.sceneFixture(depth: true)
    defer { fixture.remove() }
    let out = fixture.directory + "/out"
    // A folder under frame 2's temporary name: staging it fails (`O_EXCL`), while frames 3
    // and 4 may already be staged on the other encoder thread.
    let blocked = "frame_00002.png" + FileIO.temporarySuffix + String(getpid())
    try FileManager.default.createDirectory(
      atPath: out + "/" + blocked, withIntermediateDirectories: false)
    let error = try Self.failingRun(fixture, out: out, pipelined: pipelined)
    #expect(error?.kind == .cannotCreate)
    #expect(error?.location.file == out + "/frame_00002.png")
    #expect(try fixture.jsonLines("trace.jsonl").map { $0["frame"] as? Int } == [0, 1])
    let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
    #expect(
      names == [
        ".arsim-lock", "depth_00000.png", "depth_00001.png", "events.jsonl", "frame_00000.png",
        "frame_00001.png", blocked, "trace.jsonl",
      ])
  }

  @Test(
    "render refuses a symbolic link planted at an output name and leaves its target alone",
    arguments: ["trace.jsonl", "events.jsonl", "frame_00003.png", "run.json"])
  func plantedLink(name: String) throws {
    let fixture = try Self.sceneFixture()
    defer { fixture.remove() }
    let d = fixture.directory
    try fixture.write("victim.txt", "precious\n")
    try FileManager.default.createSymbolicLink(
      atPath: d + "/out/" + name, withDestinationPath: d + "/victim.txt")
    let (code, message) = render([d + "/scene.json", "--out", d + "/out"])
    #expect(code == 73, "\(message)")
    #expect(message.contains(d + "/out/" + name + ": is a symbolic link"), "\(message)")
    #expect(try String(contentsOfFile: d + "/victim.txt", encoding: .utf8) == "precious\n")
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: d + "/out/" + name)
        == d + "/victim.txt")
    if name != "run.json" { #expect(!FileManager.default.fileExists(atPath: d + "/out/run.json")) }
  }

  @Test(
    "a link at a line file or run.json: refused before the earlier run's files are touched",
    arguments: ["trace.jsonl", "events.jsonl", "run.json"])
  func refusalKeepsEarlierRun(name: String) throws {
    let fixture = try Self.sceneFixture()
    defer { fixture.remove() }
    let d = fixture.directory
    let (first, firstMessage) = render([d + "/scene.json", "--out", d + "/out"])
    #expect(first == 0, "\(firstMessage)")
    let kept = ["run.json", "events.jsonl", "trace.jsonl", "frame_00000.png"].filter { $0 != name }
    let before = try kept.map { try Data(contentsOf: URL(fileURLWithPath: d + "/out/" + $0)) }
    try fixture.write("victim.txt", "precious\n")
    try FileManager.default.removeItem(atPath: d + "/out/" + name)
    try FileManager.default.createSymbolicLink(
      atPath: d + "/out/" + name, withDestinationPath: d + "/victim.txt")
    let (code, message) = render([d + "/scene.json", "--out", d + "/out"])
    #expect(code == 73, "\(message)")
    #expect(message.contains(d + "/out/" + name + ": is a symbolic link"), "\(message)")
    // The earlier run.json, events, trace and frames are byte for byte as they were.
    let after = try kept.map { try Data(contentsOf: URL(fileURLWithPath: d + "/out/" + $0)) }
    #expect(after == before, "\(kept)")
  }

  @Test("an output folder reached through a symbolic link is written normally")
  func linkedOutputFolder() throws {
    let fixture = try Self.sceneFixture()
    defer { fixture.remove() }
    let d = fixture.directory
    try FileManager.default.createSymbolicLink(atPath: d + "/Output", withDestinationPath: "out")
    let (code, message) = render([d + "/scene.json", "--out", d + "/Output"])
    #expect(code == 0, "\(message)")
    #expect(try fixture.jsonLines("trace.jsonl").count == 5)
    #expect(FileManager.default.fileExists(atPath: d + "/out/run.json"))
  }
}
