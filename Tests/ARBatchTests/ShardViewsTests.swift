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
    #expect(!FileManager.default.fileExists(atPath: merged + "/.arsim-lock"))
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
    try FileManager.default.removeItem(atPath: shards[0] + "/alice")
    result = fixture.arsim(["merge", fixture.root + "/m2"] + shards)
    #expect(result.code == 66)
    #expect(result.standardError.contains("has no view folder 'alice'"), "\(result.standardError)")
  }
}
