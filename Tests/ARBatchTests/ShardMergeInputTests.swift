import ARSupport
import ARTestSupport
import Foundation
import Testing

/// A newcomer's findings on what `arsim merge` is given: a shard count past the job's frames
/// (a merge that hung), a shard still rendering (66 instead of 75), OUT holding the shards, a
/// regular file given as a shard.
@Suite("arsim merge: shard count, busy shards, OUT around the shards, files as shards")
struct ShardMergeInputTests {
  let fixture: ShardFixture

  init() throws { fixture = try ShardFixture() }

  /// Two shards of frames 0..9 (0..4 and 5..9).
  func twoShards() throws -> [String] {
    try (1...2).map { try fixture.renderShard($0, of: 2, frames: "0..9") }
  }

  /// Replaces `"count":2` in `shard`'s run.json with `count`.
  func setShardCount(_ count: String, in shard: String) throws {
    let path = shard + "/run.json"
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let pattern = #/"count": ?2\b/#
    try #require(text.contains(pattern), "\(text)")
    try text.replacing(pattern, with: #""count":"# + count)
      .write(toFile: path, atomically: true, encoding: .utf8)
  }

  @Test(
    "a shard.count past the job's frames is refused at once (65) naming the file and field",
    .timeLimit(.minutes(1)), arguments: ["9223372036854775807", "1000000"])
  func hugeShardCount(count: String) throws {
    defer { fixture.remove() }
    let shards = try twoShards()
    try setShardCount(count, in: shards[0])
    expectRefusedAtOnce(
      shards, code: 65,
      "shard-1/run.json: field 'shard.count': \(count) is more shards than the job's 10 frames")
  }

  /// Both shards' run.json claiming a job of 10¹⁸ frames (frameCount and jobFrames agreeing):
  /// the merge listed each shard's share as an array, and hung.
  @Test(
    "a job of 10¹⁸ frames claimed in run.json is refused at once (66) without listing it",
    .timeLimit(.minutes(1)))
  func hugeJob() throws {
    defer { fixture.remove() }
    let shards = try twoShards()
    for shard in shards {
      let path = shard + "/run.json"
      let text = try String(contentsOfFile: path, encoding: .utf8)
      let frameCount = #/"frameCount": ?\d+/#
      let jobFrames = #/"jobFrames": ?\[ ?0, ?9 ?\]/#
      try #require(text.contains(frameCount) && text.contains(jobFrames), "\(text)")
      try text.replacing(frameCount, with: #""frameCount":1000000000000000000"#)
        .replacing(jobFrames, with: #""jobFrames":[0,999999999999999999]"#)
        .write(toFile: path, atomically: true, encoding: .utf8)
    }
    expectRefusedAtOnce(
      shards, code: 66,
      "shard-1/run.json: field 'framesWritten': shard 1/2 of frames 0..999999999999999999 "
        + "must write frames 0..499999999999999999; missing all but 5 frames of them")
  }

  /// Merges `shards` into a new folder and expects `code` and `message` within 5 s, the folder
  /// not made.
  func expectRefusedAtOnce(_ shards: [String], code: Int32, _ message: String) {
    let merged = fixture.root + "/merged"
    let start = Date()
    let result = fixture.arsim(["merge", merged] + shards)
    #expect(result.code == code, "\(result.standardError)")
    #expect(result.standardError.contains(message), "\(result.standardError)")
    #expect(Date().timeIntervalSince(start) < 5)
    #expect(!FileManager.default.fileExists(atPath: merged))
  }

  @Test("a shard still rendering (its lock held, no run.json yet) is 75, not 66")
  func busyShardWithoutRunFile() throws {
    defer { fixture.remove() }
    let shards = try twoShards()
    try FileManager.default.removeItem(atPath: shards[1] + "/run.json")
    let busy = try OutputFolder(shards[1]).lock(waiting: false)
    defer { busy.release() }
    let result = fixture.arsim(["merge", fixture.root + "/merged"] + shards)
    #expect(result.code == 75, "\(result.standardError)")
    #expect(
      result.standardError.contains("a render is still writing this shard"),
      "\(result.standardError)")
  }

  @Test("OUT that holds a shard folder (the shards' own parent) is refused (64)")
  func outputHoldsShard() throws {
    defer { fixture.remove() }
    let shards = try twoShards()
    for out in [fixture.root, fixture.root + "/."] {
      let result = fixture.arsim(["merge", out] + shards)
      #expect(result.code == 64, "\(result.standardError)")
      #expect(
        result.standardError.contains("holds the shard folder '\(shards[0])'"),
        "\(result.standardError)")
    }
    // A shard given through a link elsewhere: OUT holding the link is refused too.
    let elsewhere = fixture.root + "/elsewhere"
    try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: elsewhere + "/link", withDestinationPath: shards[1])
    let result = fixture.arsim(["merge", elsewhere, shards[0], elsewhere + "/link"])
    #expect(result.code == 64, "\(result.standardError)")
    #expect(!FileManager.default.fileExists(atPath: fixture.root + "/run.json"))
    #expect(!FileManager.default.fileExists(atPath: elsewhere + "/run.json"))
  }

  @Test("a regular file given as a shard is said not to be a folder (66)")
  func fileAsShard() throws {
    defer { fixture.remove() }
    let shards = try twoShards()
    let file = fixture.root + "/afile"
    try Data("notes\n".utf8).write(to: URL(fileURLWithPath: file))
    let result = fixture.arsim(["merge", fixture.root + "/merged", shards[0], file])
    #expect(result.code == 66, "\(result.standardError)")
    #expect(result.standardError.contains("afile: is not a folder"), "\(result.standardError)")
    #expect(!result.standardError.contains("run.json"), "\(result.standardError)")
  }
}
