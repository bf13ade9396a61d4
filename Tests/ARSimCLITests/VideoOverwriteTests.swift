import ARRender
import ARTestSupport
import Foundation
import Testing

@testable import ARSimCLI

/// `render --video` and `arsim video DIR OUT` refuse (64) a video path that is a scene input,
/// one of the run's own files (written or not yet) or a file `arsim video` reads, before
/// anything is written; the files stay byte for byte.
@Suite("--video and arsim video never overwrite inputs or run files")
struct VideoOverwriteTests {
  /// Two TUM poses one second apart (the replay lasts 0.3 s).
  static let track = "0 0 0 0 0 0 0 1\n1 0.1 0 0 0 0 0 1\n"
  static let strokes = "{\"t\":0.1,\"data\":\"touch-start\"}\n"
  static let intrinsics =
    "{\"fx\": 517.3, \"fy\": 516.5, \"cx\": 318.6, \"cy\": 255.3, \"width\": 640, \"height\": 480}"
  /// Three frames at 32×24 of a remote-assistance scene with a track and a stroke log.
  static let scene = """
    {"name": "video-overwrite", "track": {"path": "Inputs/track.txt", "format": "tum"},
     "intrinsics": \(intrinsics), "viewport": "landscape",
     "output": {"width": 32, "height": 24, "fps": 10}, "duration": 0.3,
     "background": {"color": [0, 0, 0]},
     "remoteAssist": {"strokes": "Inputs/strokes.jsonl", "mode": "faithful"}}
    """
  /// Two participants; B's track is named as `--video Inputs/take.mp4` names B's video.
  static let collaborativeScene = """
    {"name": "video-overwrite-collab", "output": {"width": 16, "height": 16, "fps": 10},
     "duration": 0.3, "background": {"color": [0, 0, 0]},
     "collaboration": {"seed": 1, "network": {"latency": 0.05}, "participants": [
       {"id": "A", "track": {"path": "Inputs/track.txt", "format": "tum"},
        "intrinsics": \(intrinsics), "anchor": {"position": [0, 0, -1]}},
       {"id": "B", "track": {"path": "Inputs/take-B.mp4", "format": "tum"},
        "intrinsics": \(intrinsics), "anchor": {"position": [0, 0, -1]},
        "join": 0.1}]}}
    """

  /// A new folder with `scene.json`, `collab.json` and `Inputs/`; the caller removes it.
  static func makeRoot() throws -> String {
    let root = TemporaryFolder("video-overwrite").path
    try FileManager.default.createDirectory(
      atPath: root + "/Inputs", withIntermediateDirectories: true)
    for (name, text) in [
      ("scene.json", scene), ("collab.json", collaborativeScene), ("Inputs/track.txt", track),
      ("Inputs/take-B.mp4", track), ("Inputs/strokes.jsonl", strokes),
    ] {
      try text.write(toFile: root + "/" + name, atomically: true, encoding: .utf8)
    }
    return root
  }

  func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

  @Test(
    "render --video naming a scene input (stroke log, scene file, track) is refused (64)",
    arguments: ["Inputs/strokes.jsonl", "scene.json", "Inputs/./track.txt"])
  func renderOverInput(input: String) throws {
    let root = try Self.makeRoot()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let before = try bytes(root + "/" + input)
    let (code, output) = runCommand([
      "render", root + "/scene.json", "--frames", "0..2", "--out", root + "/o", "--video",
      root + "/" + input,
    ])
    #expect(code == 64, "\(output.standardError)")
    #expect(
      output.standardError.contains("would overwrite the input"), "\(output.standardError)")
    #expect(try bytes(root + "/" + input) == before)
    #expect(!FileManager.default.fileExists(atPath: root + "/o"))
  }

  @Test(
    "render --video naming one of the run's files in a folder not made yet is refused (64)",
    arguments: [
      "trace.jsonl", "events.jsonl", "run.json", "frame_00001.png", "depth_00002.png",
      "report.html",
    ])
  func renderOverOwnOutputNotYetWritten(name: String) throws {
    let root = try Self.makeRoot()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let (code, output) = runCommand([
      "render", root + "/scene.json", "--frames", "0..2", "--out", root + "/o3", "--video",
      root + "/o3/" + name,
    ])
    #expect(code == 64, "\(output.standardError)")
    #expect(
      output.standardError.contains("would overwrite the run's file"), "\(output.standardError)")
    #expect(!output.standardError.contains("No such file"), "\(output.standardError)")
    #expect(!FileManager.default.fileExists(atPath: root + "/o3"))
  }

  @Test("render --video over the previous run's trace, spelled otherwise, is refused (64)")
  func renderOverOwnTrace() throws {
    let root = try Self.makeRoot()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let first = runCommand([
      "render", root + "/scene.json", "--frames", "0..2", "--out", root + "/o4",
    ])
    #expect(first.0 == 0, "\(first.1.standardError)")
    let trace = try bytes(root + "/o4/trace.jsonl")
    #expect(String(decoding: trace, as: UTF8.self).split(separator: "\n").count == 3)
    try FileManager.default.createSymbolicLink(
      atPath: root + "/link", withDestinationPath: root + "/o4")
    for video in [
      root + "/o4/trace.jsonl", root + "/o4/../o4/./trace.jsonl", root + "/link/trace.jsonl",
    ] {
      let (code, output) = runCommand([
        "render", root + "/scene.json", "--frames", "0..2", "--out", root + "/o4", "--video",
        video,
      ])
      #expect(code == 64, "\(video): \(output.standardError)")
      #expect(try bytes(root + "/o4/trace.jsonl") == trace)
    }
  }

  @Test("render --video for a collaborative scene: OUT-<view>.mp4 naming a participant's track")
  func renderViewVideoOverParticipantInput() throws {
    let root = try Self.makeRoot()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let before = try bytes(root + "/Inputs/take-B.mp4")
    let (code, output) = runCommand([
      "render", root + "/collab.json", "--frames", "0..2", "--out", root + "/o", "--video",
      root + "/Inputs/take.mp4",
    ])
    #expect(code == 64, "\(output.standardError)")
    #expect(
      output.standardError.contains("would overwrite the input '\(root)/Inputs/take-B.mp4'"),
      "\(output.standardError)")
    #expect(try bytes(root + "/Inputs/take-B.mp4") == before)
    #expect(!FileManager.default.fileExists(atPath: root + "/o"))
  }

  /// `DIR` with frames 0…2 and run.json, and a view `alice` with frames 0…1.
  static func makeRunFolder(_ folder: String) throws {
    try FileManager.default.createDirectory(
      atPath: folder + "/alice", withIntermediateDirectories: true)
    for frame in 0...2 {
      try Image(width: 4, height: 4, fill: (UInt8(frame * 60), 90, 200, 255))
        .writePNG(to: folder + "/frame_0000\(frame).png")
      if frame < 2 {
        try Image(width: 4, height: 4).writePNG(to: folder + "/alice/frame_0000\(frame).png")
      }
    }
    try "{\"fps\": 10}\n".write(toFile: folder + "/run.json", atomically: true, encoding: .utf8)
    try "{\"fps\": 10}\n".write(
      toFile: folder + "/alice/run.json", atomically: true, encoding: .utf8)
  }

  @Test(
    "arsim video DIR OUT naming a frame or run.json it reads (DIR or a view) is refused (64)",
    arguments: [
      "o/frame_00001.png", "o/run.json", "o/alice/frame_00000.png", "o/alice/run.json",
      "link/frame_00002.png",
    ])
  func videoOverSource(out: String) throws {
    let root = try Self.makeRoot()
    defer { try? FileManager.default.removeItem(atPath: root) }
    try Self.makeRunFolder(root + "/o")
    try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: "o")
    let files = [
      "frame_00000.png", "frame_00001.png", "frame_00002.png", "run.json", "alice/frame_00000.png",
      "alice/frame_00001.png", "alice/run.json",
    ]
    let before = try files.map { try bytes(root + "/o/" + $0) }
    let (code, output) = runCommand(["video", root + "/o", root + "/" + out])
    #expect(code == 64, "\(output.standardError)")
    #expect(
      output.standardError.contains("would overwrite the run's file"), "\(output.standardError)")
    #expect(try files.map { try bytes(root + "/o/" + $0) } == before)
    let written = try [root, root + "/o", root + "/o/alice"].flatMap {
      try FileManager.default.contentsOfDirectory(atPath: $0)
    }
    #expect(!written.contains { $0.hasSuffix(".mp4") }, "\(written)")
  }
}
