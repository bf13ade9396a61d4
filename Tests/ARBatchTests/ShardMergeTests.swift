import ARSupport
import ARSimCLI
import ARTestSupport
import Foundation
import Testing

@Suite("arsim render --shard and arsim merge")
struct ShardMergeTests {
  let fixture: ShardFixture

  init() throws { fixture = try ShardFixture() }

  /// All four shards of the whole scene (frames 0..30: 0..7, 8..15, 16..23, 24..30).
  func fourShards() throws -> [String] {
    try (1...4).map { try fixture.renderShard($0, of: 4) }
  }

  func full(_ frames: String? = nil) throws -> String {
    let out = fixture.root + "/full"
    let result = fixture.arsim(
      ["render", fixture.scene, "--out", out, "--threads", "1"]
        + (frames.map { ["--frames", $0] } ?? []))
    guard result.code == 0 else { throw FixtureError(result.standardError) }
    return out
  }

  @Test(
    "4 shards merged (given out of order) equal a single run: frames, trace, events, run.json minus timing"
  )
  func mergedEqualsSingleRun() throws {
    defer { fixture.remove() }
    let single = try full()
    let shards = try fourShards()
    let merged = fixture.root + "/merged"
    let result = fixture.arsim(["merge", merged, shards[2], shards[0], shards[3], shards[1]])
    #expect(result.code == 0, "\(result.standardError)")
    #expect(result.standardError.contains("4 shards, frames 0..30"))
    #expect(try fixture.names(merged) == fixture.names(single))
    let frames = try fixture.names(single).filter { $0.hasPrefix("frame_") }
    #expect(frames.count == 31)
    for name in frames + ["trace.jsonl", "events.jsonl"] {
      #expect(
        try fixture.bytes(merged + "/" + name) == fixture.bytes(single + "/" + name), "\(name)")
    }
    #expect(try fixture.runFile(merged) == fixture.runFile(single))
    // The events of the whole run are there: touch-start at frame 15, a dropped point at 22.
    let events = try String(contentsOfFile: merged + "/events.jsonl", encoding: .utf8)
    #expect(events.split(separator: "\n").count == 2)
    // Frames are hard links to the shards' files, not copies and not symbolic links.
    #expect(
      fixture.inode(merged + "/frame_00009.png") == fixture.inode(shards[1] + "/frame_00009.png"))
    let type = try FileManager.default.attributesOfItem(atPath: merged + "/frame_00009.png")[.type]
    #expect(type as? FileAttributeType == .typeRegular)
  }

  @Test("a shard writes the events of the ticks before its first frame exactly as a full run does")
  func eventsBeforeFirstFrame() throws {
    defer { fixture.remove() }
    let single = try full("14..29")
    // 14..29 in 4 parts: 14..17, 18..21, 22..25, 26..29; shard 3 starts at frame 22, whose
    // dropped-point event comes from AR tick 43 (τ = 43/60 s), before the frame's τ = 22/30 s.
    let third = try fixture.renderShard(3, of: 4, frames: "14..29")
    let second = try fixture.renderShard(2, of: 4, frames: "14..29")
    let fullLines = try String(contentsOfFile: single + "/events.jsonl", encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false)
    let thirdText = try String(contentsOfFile: third + "/events.jsonl", encoding: .utf8)
    let expected = fullLines.filter {
      $0.contains("\"frame\":22,") || $0.contains("\"frame\":23,") || $0.contains("\"frame\":24,")
        || $0.contains("\"frame\":25,")
    }
    #expect(expected.count == 1)
    #expect(thirdText == expected.joined(separator: "\n") + "\n")
    let event = try JSONSerialization.jsonObject(with: Data(thirdText.utf8)) as? [String: Any]
    let t = try #require(event?["t"] as? Double)
    #expect(t == 43.0 / 60.0)
    #expect(t < 22.0 / 30.0)
    #expect(event?["event"] as? String == "dropped-point")
    #expect(try String(contentsOfFile: second + "/events.jsonl", encoding: .utf8).isEmpty)
    // Shard 3's frames are the full run's.
    for frame in 22...25 {
      let name = String(format: "/frame_%05d.png", frame)
      #expect(try fixture.bytes(third + name) == fixture.bytes(single + name))
    }
  }

  @Test("a job that starts after an event: run.json counts every tick's events, as the single run")
  func countsFromTickZero() throws {
    defer { fixture.remove() }
    // Frames 16..29: the touch-start of frame 15 is raised (counted) but not written.
    let single = try full("16..29")
    let shards = try (1...2).map { try fixture.renderShard($0, of: 2, frames: "16..29") }
    let merged = fixture.root + "/merged"
    let result = fixture.arsim(["merge", merged] + shards)
    #expect(result.code == 0, "\(result.standardError)")
    let run = try fixture.runFile(merged)
    #expect(run == (try fixture.runFile(single)))
    #expect(run["events"] as? Int == 2)
    let lines = try String(contentsOfFile: merged + "/events.jsonl", encoding: .utf8)
    #expect(lines.split(separator: "\n").count == 1)
    #expect(try fixture.bytes(merged + "/events.jsonl") == fixture.bytes(single + "/events.jsonl"))
  }

  @Test("re-running a shard into its folder (a requeued task) restores the same bytes")
  func rerun() throws {
    defer { fixture.remove() }
    let shard = try fixture.renderShard(2, of: 4)
    let names = try fixture.names(shard)
    let first = try names.filter { $0 != "run.json" }.map { try fixture.bytes(shard + "/" + $0) }
    let run = try fixture.runFile(shard)
    // A half-written frame and a truncated trace, as a killed task leaves them.
    try Data([0x89, 0x50]).write(to: URL(fileURLWithPath: shard + "/frame_00010.png"))
    try Data().write(to: URL(fileURLWithPath: shard + "/trace.jsonl"))
    _ = try fixture.renderShard(2, of: 4)
    #expect(try fixture.names(shard) == names)
    #expect(
      try names.filter { $0 != "run.json" }.map { try fixture.bytes(shard + "/" + $0) } == first)
    #expect(try fixture.runFile(shard) == run)
    let shardField = run["shard"] as? NSDictionary
    #expect(shardField?["index"] as? Int == 2)
    #expect(shardField?["frames"] as? [Int] == [8, 15])
    #expect(shardField?["jobFrames"] as? [Int] == [0, 30])
    #expect(shardField?["source"] as? String == "explicit")
  }

  @Test("a missing shard is refused (66), naming the shard and its frames; nothing is written")
  func missingShard() throws {
    defer { fixture.remove() }
    let shards = try fourShards()
    let merged = fixture.root + "/merged"
    let result = fixture.arsim(["merge", merged, shards[0], shards[1], shards[3]])
    #expect(result.code == 66)
    #expect(
      result.standardError.contains("missing shard 3/4 (frames 16..23)"), "\(result.standardError)")
    #expect(!FileManager.default.fileExists(atPath: merged))
  }

  @Test("overlapping shards are refused (65): one shard twice, or shards of different splits")
  func overlap() throws {
    defer { fixture.remove() }
    let shards = try fourShards()
    let copy = fixture.root + "/again-2"
    try FileManager.default.copyItem(atPath: shards[1], toPath: copy)
    var result = fixture.arsim(["merge", fixture.root + "/m1"] + shards + [copy])
    #expect(result.code == 65)
    #expect(
      result.standardError.contains("overlapping shards (frames 8..15 twice)"),
      "\(result.standardError)")
    let ofThree = try fixture.renderShard(1, of: 3, name: "third-1")
    result = fixture.arsim(["merge", fixture.root + "/m2", ofThree] + shards.dropFirst())
    #expect(result.code == 65)
    #expect(result.standardError.contains("field 'shard.count'"), "\(result.standardError)")
  }

  @Test("shards of different scene inputs are refused (65), naming the input that differs")
  func differentScene() throws {
    defer { fixture.remove() }
    let other = try ShardFixture(strokes: "colors.jsonl")
    defer { other.remove() }
    let shards = try (1...3).map { try fixture.renderShard($0, of: 4) }
    let foreign = try other.renderShard(4, of: 4)
    let result = fixture.arsim(["merge", fixture.root + "/merged"] + shards + [foreign])
    #expect(result.code == 65)
    #expect(result.standardError.contains("field 'sceneHash'"), "\(result.standardError)")
    #expect(
      result.standardError.contains("strokes.jsonl (input 3 of 3)"), "\(result.standardError)")
  }

  @Test("shards drawn with different overlays (--hud) are refused (65), naming them")
  func differentOverlays() throws {
    defer { fixture.remove() }
    let plain = try fixture.renderShard(1, of: 4)
    let drawn = try fixture.renderShard(2, of: 4, options: ["--hud"])
    let run = try fixture.runFile(drawn)
    #expect((run["overlays"] as? NSDictionary)?["hud"] as? Bool == true)
    #expect((run["overlays"] as? NSDictionary)?["featurePoints"] as? Bool == false)
    let result = fixture.arsim(["merge", fixture.root + "/merged", plain, drawn])
    #expect(result.code == 65)
    #expect(
      result.standardError.contains("field 'overlays': --hud differs from"),
      "\(result.standardError)")
    #expect(result.standardError.contains("'s no overlays"), "\(result.standardError)")
    #expect(!FileManager.default.fileExists(atPath: fixture.root + "/merged"))
  }

  @Test("shards of different ARSim versions are refused (65)")
  func differentVersion() throws {
    defer { fixture.remove() }
    let shards = try fourShards()
    let path = shards[2] + "/run.json"
    let text = try String(contentsOfFile: path, encoding: .utf8)
    try text.replacingOccurrences(of: "\"arsimVersion\":\"", with: "\"arsimVersion\":\"9.")
      .write(toFile: path, atomically: true, encoding: .utf8)
    let result = fixture.arsim(["merge", fixture.root + "/merged"] + shards)
    #expect(result.code == 65)
    #expect(result.standardError.contains("field 'arsimVersion'"), "\(result.standardError)")
  }

  @Test(
    "a missing frame file, an unfinished shard and a folder not rendered with --shard are refused")
  func incompleteInputs() throws {
    defer { fixture.remove() }
    let shards = try fourShards()
    try FileManager.default.removeItem(atPath: shards[2] + "/frame_00017.png")
    var result = fixture.arsim(["merge", fixture.root + "/m1"] + shards)
    #expect(result.code == 66)
    #expect(
      result.standardError.contains("frame_NNNNN.png files are missing: 17"),
      "\(result.standardError)")
    try FileManager.default.removeItem(atPath: shards[3] + "/run.json")
    result = fixture.arsim(["merge", fixture.root + "/m2", shards[3]])
    #expect(result.code == 66)
    #expect(result.standardError.contains("run.json: missing: the shard did not finish"))
    let single = try full()
    result = fixture.arsim(["merge", fixture.root + "/m3", single])
    #expect(result.code == 65)
    #expect(result.standardError.contains("not rendered with --shard"))
  }

  @Test("the output may not be a shard folder or inside one (64); merge needs OUT and a shard")
  func outputChecks() throws {
    defer { fixture.remove() }
    let shards = try fourShards()
    var result = fixture.arsim(["merge", shards[0] + "/./"] + shards)
    #expect(result.code == 64)
    #expect(result.standardError.contains("is the shard folder"), "\(result.standardError)")
    result = fixture.arsim(["merge", shards[1] + "/merged/deeper"] + shards)
    #expect(result.code == 64)
    #expect(result.standardError.contains("is inside the shard folder"), "\(result.standardError)")
    #expect(!FileManager.default.fileExists(atPath: shards[1] + "/merged"))
    #expect(fixture.arsim(["merge", fixture.root + "/x"]).code == 64)
  }

  @Test("a shard still being written, or an output another merge holds, is refused (75)")
  func locks() throws {
    defer { fixture.remove() }
    let shards = try fourShards()
    let busy = try OutputFolder(shards[1]).lock(waiting: false)
    var result = fixture.arsim(["merge", fixture.root + "/m1"] + shards)
    #expect(result.code == 75)
    #expect(
      result.standardError.contains("a render is still writing this shard"),
      "\(result.standardError)")
    busy.release()
    let merged = fixture.root + "/m2"
    try FileManager.default.createDirectory(atPath: merged, withIntermediateDirectories: true)
    let other = try OutputFolder(merged).lock(waiting: false)
    result = fixture.arsim(["merge", merged] + shards)
    #expect(result.code == 75, "\(result.standardError)")
    #expect(result.standardError.contains("pass --wait-for-lock"))
    // The option the message names: merge waits, says once whom for, then merges.
    let captured = CapturedOutput()
    let waiting = Thread {
      _ = ARSimCLI.run(
        arguments: ["merge", merged, "--wait-for-lock"] + shards, output: captured.output)
    }
    waiting.start()
    let deadline = Date(timeIntervalSinceNow: 10)
    while !captured.standardError.contains("waiting for"), Date() < deadline { usleep(10_000) }
    #expect(!FileManager.default.fileExists(atPath: merged + "/run.json"))
    other.release()
    let done = Date(timeIntervalSinceNow: 30)
    while !captured.standardError.contains("shards, frames"), Date() < done { usleep(10_000) }
    #expect(
      captured.standardError.split(separator: "\n").first
        == "arsim merge: waiting for pid \(getpid())'s lock on \(merged)")
    #expect(FileManager.default.fileExists(atPath: merged + "/run.json"))
  }

  @Test("--copy copies; merging again into the same folder gives the same result")
  func copyAndAgain() throws {
    defer { fixture.remove() }
    let shards = try fourShards()
    let merged = fixture.root + "/merged"
    #expect(fixture.arsim(["merge", merged] + shards + ["--copy"]).code == 0)
    #expect(
      fixture.inode(merged + "/frame_00030.png") != fixture.inode(shards[3] + "/frame_00030.png"))
    #expect(
      try fixture.bytes(merged + "/frame_00030.png")
        == fixture.bytes(shards[3] + "/frame_00030.png"))
    let first = try fixture.runFile(merged)
    #expect(fixture.arsim(["merge", merged] + shards).code == 0)
    #expect(
      fixture.inode(merged + "/frame_00030.png") == fixture.inode(shards[3] + "/frame_00030.png"))
    #expect(try fixture.runFile(merged) == first)
    #expect(try fixture.names(merged).allSatisfy { !$0.contains(".arsim-tmp-") })
  }
}
