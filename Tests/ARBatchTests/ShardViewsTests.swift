import Foundation
import Testing

/// Collaborative scenes write each participant's view into `DIR/<participant>/` and the
/// exchanged messages into `DIR/messages.jsonl`: merge handles any view subfolder and line file
/// the same way. The shards here get such files added by hand (frames copied into `alice/`,
/// the trace duplicated, a `messages.jsonl` of one line per frame).
@Suite("arsim merge: view subfolders and other line files")
struct ShardViewsTests {
  let fixture: ShardFixture

  init() throws { fixture = try ShardFixture() }

  func addViews(_ shard: String, frames: ClosedRange<Int>) throws {
    let alice = shard + "/alice"
    try FileManager.default.createDirectory(atPath: alice, withIntermediateDirectories: true)
    for frame in frames {
      let name = String(format: "frame_%05d.png", frame)
      try FileManager.default.copyItem(atPath: shard + "/" + name, toPath: alice + "/" + name)
    }
    try FileManager.default.copyItem(atPath: shard + "/trace.jsonl", toPath: alice + "/trace.jsonl")
    try Data().write(to: URL(fileURLWithPath: alice + "/events.jsonl"))
    let messages = frames.map { "{\"t\":\(Double($0) / 30),\"frame\":\($0),\"from\":\"alice\"}\n" }
    try Data(messages.joined().utf8).write(to: URL(fileURLWithPath: shard + "/messages.jsonl"))
    // The output lock and other files are not part of the output.
    try Data("12345\n".utf8).write(to: URL(fileURLWithPath: shard + "/.arsim-lock"))
    try Data("notes".utf8).write(to: URL(fileURLWithPath: shard + "/notes.txt"))
  }

  @Test("view folders are merged like the top level; messages.jsonl is concatenated in frame order")
  func views() throws {
    defer { fixture.remove() }
    let ranges = [0...7, 8...15, 16...23, 24...30]
    var shards: [String] = []
    for (i, range) in ranges.enumerated() {
      let shard = try fixture.renderShard(i + 1, of: 4)
      try addViews(shard, frames: range)
      shards.append(shard)
    }
    let merged = fixture.root + "/merged"
    let result = fixture.arsim(["merge", merged] + shards.reversed())
    #expect(result.code == 0, "\(result.standardError)")
    #expect(result.standardError.contains("views alice"))
    #expect(
      try fixture.names(merged + "/alice")
        == (fixture.names(merged).filter { $0.hasPrefix("frame_") } + [
          "events.jsonl", "trace.jsonl",
        ]).sorted())
    #expect(
      try fixture.bytes(merged + "/alice/trace.jsonl") == fixture.bytes(merged + "/trace.jsonl"))
    #expect(
      try fixture.bytes(merged + "/alice/frame_00020.png")
        == fixture.bytes(shards[2] + "/frame_00020.png"))
    let messages = try String(contentsOfFile: merged + "/messages.jsonl", encoding: .utf8)
    let frames = messages.split(separator: "\n").compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["frame"] as? Int
    }
    #expect(frames == Array(0...30))
    // The merged folder's lock file is the merge's own (its process id), not a shard's.
    let lock = try String(contentsOfFile: merged + "/.arsim-lock", encoding: .utf8)
    #expect(lock != "12345\n")
    #expect(!FileManager.default.fileExists(atPath: merged + "/notes.txt"))
  }

  @Test("a line naming another shard's frame, and a view only some shards have, are refused")
  func refusals() throws {
    defer { fixture.remove() }
    let ranges = [0...7, 8...15, 16...23, 24...30]
    var shards: [String] = []
    for (i, range) in ranges.enumerated() {
      let shard = try fixture.renderShard(i + 1, of: 4)
      try addViews(shard, frames: range)
      shards.append(shard)
    }
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: shards[3] + "/messages.jsonl"))
    handle.seekToEndOfFile()
    handle.write(Data("{\"t\":0.1,\"frame\":3,\"from\":\"bob\"}\n".utf8))
    try handle.close()
    var result = fixture.arsim(["merge", fixture.root + "/m1"] + shards)
    #expect(result.code == 65)
    #expect(
      result.standardError.contains(
        "messages.jsonl:8: field 'frame': frame 3 is not one of this shard's frames 24..30"),
      "\(result.standardError)")
    try FileManager.default.removeItem(atPath: shards[3] + "/messages.jsonl")
    try Data().write(to: URL(fileURLWithPath: shards[3] + "/messages.jsonl"))
    try FileManager.default.removeItem(atPath: shards[1] + "/alice/frame_00012.png")
    result = fixture.arsim(["merge", fixture.root + "/m3"] + shards)
    #expect(result.code == 66)
    #expect(
      result.standardError.contains(
        "alice: shard 2/4: run.json lists frames whose frame_NNNNN.png files are missing: 12"),
      "\(result.standardError)")
    try FileManager.default.removeItem(atPath: shards[0] + "/alice")
    result = fixture.arsim(["merge", fixture.root + "/m2"] + shards)
    #expect(result.code == 66)
    #expect(result.standardError.contains("has no view folder 'alice'"), "\(result.standardError)")
  }
}

/// A collaborative scene's `messages.jsonl` holds every message of the run up to the last
/// frame's tick, with no frame numbers: each shard's is a prefix of the next shard's, and the
/// merged one is the last shard's (the full run's).
@Suite("arsim merge: logs of the whole run (no frame per line)")
struct ShardRunLogTests {
  let fixture: ShardFixture

  init() throws { fixture = try ShardFixture() }

  /// Message lines sent at τ = k / 10 s, k = 0…n − 1.
  static func log(_ n: Int) -> String {
    (0..<n).map { "{\"sequence\":\($0),\"t\":\(Double($0) / 10),\"from\":\"alice\"}\n" }.joined()
  }

  @Test("the last shard's log is kept when each is a prefix of the next; otherwise refused (65)")
  func prefixes() throws {
    defer { fixture.remove() }
    // Shards end at frames 7, 15, 23, 30 (τ 0.23, 0.5, 0.77, 1.0 s): 3, 6, 8 and 11 messages.
    let counts = [3, 6, 8, 11]
    var shards: [String] = []
    for (i, n) in counts.enumerated() {
      let shard = try fixture.renderShard(i + 1, of: 4)
      try Data(Self.log(n).utf8).write(to: URL(fileURLWithPath: shard + "/messages.jsonl"))
      shards.append(shard)
    }
    let merged = fixture.root + "/merged"
    let result = fixture.arsim(["merge", merged] + shards)
    #expect(result.code == 0, "\(result.standardError)")
    #expect(try String(contentsOfFile: merged + "/messages.jsonl", encoding: .utf8) == Self.log(11))
    // Shard 3's log loses a line in the middle: it no longer begins with shard 2's.
    let lines = Self.log(8).split(separator: "\n")
    let broken = (lines.prefix(4) + lines.dropFirst(5)).joined(separator: "\n") + "\n"
    try Data(broken.utf8).write(to: URL(fileURLWithPath: shards[2] + "/messages.jsonl"))
    let refused = fixture.arsim(["merge", fixture.root + "/m2"] + shards)
    #expect(refused.code == 65)
    #expect(refused.standardError.contains("does not begin with"), "\(refused.standardError)")
    #expect(refused.standardError.contains("shard-3/messages.jsonl: its lines name no frame"))
  }
}

/// The bundled collaborative scene (three participants' views in `DIR/A/`, `DIR/B/`, `DIR/C/`,
/// `DIR/messages.jsonl`, a top-level run.json listing the views) as 3 shards of frames 0..2 (one frame each).
@Suite("arsim merge: the bundled collaborative scene")
struct ShardCollaborationTests {
  @Test("3 shards of collab-three merge to the single run: every view, messages.jsonl, run.json")
  func collaboration() throws {
    let fixture = try ShardFixture()
    defer { fixture.remove() }
    let scene = ShardFixture.repository + "/Scenes/collab-three.json"
    let single = fixture.root + "/full"
    let full = fixture.arsim(["render", scene, "--frames", "0..2", "--out", single])
    #expect(full.code == 0, "\(full.standardError)")
    var shards: [String] = []
    for i in 1...3 {
      let out = fixture.root + "/shard-\(i)"
      let result = fixture.arsim(
        ["render", scene, "--frames", "0..2", "--shard", "\(i)/3", "--out", out])
      #expect(result.code == 0, "\(result.standardError)")
      shards.append(out)
    }
    let merged = fixture.root + "/merged"
    let result = fixture.arsim(["merge", merged] + shards)
    #expect(result.code == 0, "\(result.standardError)")
    #expect(result.standardError.contains("views A, B, C"))
    #expect(try fixture.names(merged) == fixture.names(single))
    for view in ["A", "B", "C"] {
      let names = try fixture.names(single + "/" + view)
      #expect(names.filter { $0.hasPrefix("frame_") }.count == 3)
      #expect(try fixture.names(merged + "/" + view) == names)
      for name in names where name != "run.json" {
        #expect(
          try fixture.bytes(merged + "/\(view)/" + name)
            == fixture.bytes(single + "/\(view)/" + name),
          "\(view)/\(name)")
      }
      #expect(try fixture.runFile(merged + "/" + view) == fixture.runFile(single + "/" + view))
    }
    let messages = try fixture.bytes(single + "/messages.jsonl")
    #expect(!messages.isEmpty)
    // (Within these first frames every shard's log is the same; ShardRunLogTests covers logs
    // that grow from shard to shard.)
    #expect(try fixture.bytes(merged + "/messages.jsonl") == messages)
    #expect(try fixture.runFile(merged) == fixture.runFile(single))
  }
}
