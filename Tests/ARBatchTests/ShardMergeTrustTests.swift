import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `arsim merge` trusts nothing inside a shard: entries must be regular files and folders
/// (links, FIFOs refused, never followed), and every check passes before the first write, so
/// a refused merge leaves OUT as it was.
@Suite("arsim merge: shard entries and check-before-write")
struct ShardMergeTrustTests {
  let fixture: ShardFixture

  init() throws { fixture = try ShardFixture() }

  /// Two shards of frames 0..9 (0..4 and 5..9).
  func twoShards() throws -> [String] {
    try (1...2).map { try fixture.renderShard($0, of: 2, frames: "0..9") }
  }

  /// Every entry of `folder` (recursively) with its bytes, and links' targets.
  func snapshot(_ folder: String) throws -> [String: Data] {
    var out: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: folder)
    while let name = enumerator?.nextObject() as? String {
      let path = folder + "/" + name
      if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
        out[name] = Data(("link → " + target).utf8)
      } else if let data = FileManager.default.contents(atPath: path) {
        out[name] = data
      } else {
        out[name] = Data()
      }
    }
    return out
  }

  @Test(
    "a symbolic link inside a shard is refused (65) naming it, with and without --copy; OUT is not made",
    arguments: [
      ("frame_00007.png", false), ("frame_00007.png", true), ("leak.jsonl", false),
      ("view", false), ("run.json", false),
    ])
  func linkRefused(entry: String, copying: Bool) throws {
    defer { fixture.remove() }
    let shards = try twoShards()
    let outside = fixture.root + "/outside"
    try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
    try Data("root:x:0:0:root:/root:/bin/bash\n".utf8).write(
      to: URL(fileURLWithPath: outside + "/passwd"))
    let target =
      entry == "view" ? outside : outside + (entry == "run.json" ? "/run.json" : "/passwd")
    if entry == "run.json" {
      // A run.json pointing at a real shard's: the bytes read fine, the entry is still a link.
      try FileManager.default.moveItem(
        atPath: shards[1] + "/run.json", toPath: outside + "/run.json")
      try FileManager.default.createSymbolicLink(
        atPath: shards[1] + "/run.json", withDestinationPath: outside + "/run.json")
    } else {
      for shard in shards where entry != "frame_00007.png" || shard == shards[1] {
        try? FileManager.default.removeItem(atPath: shard + "/" + entry)
        try FileManager.default.createSymbolicLink(
          atPath: shard + "/" + entry, withDestinationPath: target)
      }
    }
    let out = fixture.root + "/merged"
    let result = fixture.arsim(["merge", out] + shards + (copying ? ["--copy"] : []))
    #expect(result.code == 65, "\(result.standardError)")
    #expect(
      result.standardError.contains(entry + ": is a symbolic link (to '" + target + "')"),
      "\(result.standardError)")
    #expect(!FileManager.default.fileExists(atPath: out), "a refused merge wrote \(out)")
  }

  @Test("a FIFO inside a shard is refused (65) naming it, never opened")
  func fifoRefused() throws {
    defer { fixture.remove() }
    let shards = try twoShards()
    #expect(mkfifo(shards[0] + "/pipe.jsonl", 0o644) == 0)
    let out = fixture.root + "/merged"
    let result = fixture.arsim(["merge", out] + shards)
    #expect(result.code == 65, "\(result.standardError)")
    #expect(result.standardError.contains("pipe.jsonl: is a FIFO"), "\(result.standardError)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test("a shard folder given as a link to a folder is fine: only entries inside it are checked")
  func shardFolderLink() throws {
    defer { fixture.remove() }
    let shards = try twoShards()
    let link = fixture.root + "/second"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: shards[1])
    let result = fixture.arsim(["merge", fixture.root + "/merged", shards[0], link])
    #expect(result.code == 0, "\(result.standardError)")
    #expect(
      try fixture.names(fixture.root + "/merged").filter { $0.hasPrefix("frame_") }.count == 10)
  }

  @Test(
    "a trace.jsonl cut mid-line is refused (65) before anything is written: a new OUT is not made, an old one is unchanged"
  )
  func cutTraceWritesNothing() throws {
    defer { fixture.remove() }
    let shards = try twoShards()
    let out = fixture.root + "/merged"
    #expect(fixture.arsim(["merge", out] + shards).code == 0)
    let before = try snapshot(out)
    #expect(before.keys.contains("frame_00009.png") && before.keys.contains("run.json"))
    // Shard 2 is rendered again with more frames' trace, then its trace is cut mid-line.
    let trace = shards[1] + "/trace.jsonl"
    let bytes = try fixture.bytes(trace)
    try bytes.prefix(bytes.count - 20).write(to: URL(fileURLWithPath: trace))
    let result = fixture.arsim(["merge", out] + shards)
    #expect(result.code == 65, "\(result.standardError)")
    #expect(result.standardError.contains("the last line is incomplete"), "\(result.standardError)")
    #expect(try snapshot(out) == before, "the refused merge changed \(out)")
    let fresh = fixture.root + "/fresh"
    #expect(fixture.arsim(["merge", fresh] + shards).code == 65)
    #expect(!FileManager.default.fileExists(atPath: fresh))
  }

  @Test("a line naming another shard's frame in events.jsonl: refused before the frames are linked")
  func wrongFrameWritesNothing() throws {
    defer { fixture.remove() }
    let shards = try twoShards()
    let events = shards[0] + "/events.jsonl"
    var text = try String(contentsOfFile: events, encoding: .utf8)
    text += "{\"frame\":8,\"t\":0.3,\"type\":\"forged\"}\n"
    try text.write(toFile: events, atomically: true, encoding: .utf8)
    let out = fixture.root + "/merged"
    let result = fixture.arsim(["merge", out] + shards)
    #expect(result.code == 65, "\(result.standardError)")
    #expect(
      result.standardError.contains("frame 8 is not one of this shard's frames"),
      "\(result.standardError)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test("an emptied or cut events.jsonl is refused (65) naming the shard, before any write")
  func eventCounts() throws {
    defer { fixture.remove() }
    // Four shards of 0..30: the events at frames 15 and 22 are shard 2's and shard 3's.
    let shards = try (1...4).map { try fixture.renderShard($0, of: 4) }
    let out = fixture.root + "/merged"
    for index in [1, 2] {
      let events = shards[index] + "/events.jsonl"
      let kept = try Data(contentsOf: URL(fileURLWithPath: events))
      #expect(!kept.isEmpty)
      try Data().write(to: URL(fileURLWithPath: events))
      let result = fixture.arsim(["merge", out] + shards)
      #expect(result.code == 65, "\(result.standardError)")
      #expect(
        result.standardError.contains("events.jsonl: shard \(index + 1)/4: has 0 lines"),
        "\(result.standardError)")
      #expect(!FileManager.default.fileExists(atPath: out))
      try kept.write(to: URL(fileURLWithPath: events))
    }
    // Whole again: merged, with as many lines as run.json counts.
    #expect(fixture.arsim(["merge", out] + shards).code == 0)
    let lines = try String(contentsOfFile: out + "/events.jsonl", encoding: .utf8)
      .split(separator: "\n").count
    let run = try fixture.runFile(out)
    #expect(run["events"] as? Int == lines)
  }

  @Test("a folder where OUT would get a frame is found before anything is written (73)")
  func outputInTheWay() throws {
    defer { fixture.remove() }
    let shards = try twoShards()
    let out = fixture.root + "/merged"
    try FileManager.default.createDirectory(
      atPath: out + "/frame_00009.png", withIntermediateDirectories: true)
    let result = fixture.arsim(["merge", out] + shards)
    #expect(result.code == 73, "\(result.standardError)")
    #expect(try fixture.names(out) == ["frame_00009.png"], "the refused merge wrote into \(out)")
  }
}
