import ARRender
import ARTestSupport
import Foundation
import Testing

@testable import ARSimCLI

/// Shards of a scene over recorded camera images: their images' events come only with the
/// frames each shard renders, so a merge adds up the shards' `cameraImageEvents` and
/// `cameraImageWarnings` where the other counts are the last shard's.
@Suite struct ShardRecordingTests {
  @Test("4 shards over unreadable images merge to the single run's counts, and its events")
  func countsMatchSingleRun() throws {
    let folder = TemporaryFolder("shard-recording")
    defer { folder.remove() }
    try FileManager.default.createDirectory(
      atPath: folder.path + "/images", withIntermediateDirectories: true)
    try Image(width: 8, height: 6, fill: (200, 0, 0, 255)).writePNG(
      to: folder.path + "/images/red.png")
    let red = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/images/red.png"))
    _ = folder.write(Array(red.prefix(red.count / 2)), to: "images/cut.png")
    // Unreadable images at 0, 0.35 and 0.65 s (frames 0, 4 and 7: one shard each of three),
    // readable ones between.
    _ = folder.write("0 cut.png\n0.1 red.png\n0.35 cut2.png\n0.65 cut3.png\n", to: "times.txt")
    _ = folder.write(Array(red.prefix(red.count / 3)), to: "images/cut2.png")
    _ = folder.write(Array(red.prefix(10)), to: "images/cut3.png")
    _ = folder.write(
      #"{"format": "arsim-track", "version": 1, "poses": [{"t": 0, "worldFromCamera": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]}, {"t": 1, "worldFromCamera": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]}]}"#,
      to: "track.json")
    let scene = folder.write(
      """
      {"name": "recording-shards", "track": {"path": "track.json"}, "output": {"fps": 10},
       "frames": 10,
       "background": {"color": [0, 1, 0], "recording": {"list": "times.txt", "folder": "images",
         "lens": {"fx": 8, "fy": 8, "cx": 3.5, "cy": 2.5, "width": 8, "height": 6}}}}
      """, to: "scene.json")
    func render(_ out: String, _ options: [String] = []) throws {
      let (code, output) = runCommand(
        ["render", scene, "--out", folder.path + "/" + out, "--threads", "1"] + options)
      try #require(code == 0, "\(output.standardError)")
    }
    func run(_ out: String) throws -> [String: Any] {
      let data = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/" + out + "/run.json"))
      return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
    try render("single")
    for index in 1...4 { try render("shard-\(index)", ["--shard", "\(index)/4"]) }
    let (code, output) = runCommand(
      ["merge", folder.path + "/merged"] + (1...4).map { folder.path + "/shard-\($0)" })
    try #require(code == 0, "\(output.standardError)")
    let single = try run("single")
    let merged = try run("merged")
    // Three unreadable images: three warnings, and the gap's camera-image-missing at frame 0.
    #expect(single["cameraImageWarnings"] as? Int == 3)
    #expect(single["cameraImageEvents"] as? Int == 4)
    #expect(single["warningCount"] as? Int == 3)
    for key in [
      "events", "warningEvents", "warningCount", "cameraImageEvents", "cameraImageWarnings",
    ] {
      #expect(merged[key] as? Int == single[key] as? Int, "\(key)")
    }
    // Each shard counts only its own frames' images, so the last shard's count (what a merge
    // took before) falls short of the single run's.
    let perShard = try (1...4).map { try run("shard-\($0)")["cameraImageWarnings"] as? Int ?? -1 }
    #expect(perShard.reduce(0, +) == 3)
    #expect(try (run("shard-4")["warningCount"] as? Int ?? 0) < 3)
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: folder.path + "/merged/events.jsonl"))
        == Data(contentsOf: URL(fileURLWithPath: folder.path + "/single/events.jsonl")))
  }
}
