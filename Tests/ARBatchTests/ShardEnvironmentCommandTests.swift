import Foundation
import Testing

/// `--shard auto` reads the process environment, so these run the built `arsim` with an
/// environment of their own (one per engine form) and check the shard it rendered.
@Suite("arsim render --shard auto in a batch engine's environment")
struct ShardEnvironmentCommandTests {
  let fixture: ShardFixture
  let arsim = ShardFixture.repository + "/.build/debug/arsim"

  init() throws { fixture = try ShardFixture() }

  func render(_ environment: [String: String], _ shard: String) throws -> (Int32, String, String) {
    let out = fixture.root + "/out-\(UUID().uuidString)"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arsim)
    process.arguments = ["render", fixture.scene, "--shard", shard, "--out", out, "--threads", "1"]
    process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { a, _ in a }
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text, out)
  }

  func shardField(_ out: String) throws -> NSDictionary? {
    try fixture.runFile(out)["shard"] as? NSDictionary
  }

  @Test(
    "each engine's variables give the shard, recorded with its source",
    arguments: [
      (
        [
          "SLURM_ARRAY_TASK_ID": "12", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_MAX": "16",
          "SLURM_ARRAY_TASK_STEP": "2", "SLURM_ARRAY_TASK_COUNT": "4",
        ], "auto", 2, [8, 15], "slurm"
      ),
      (["JOB_COMPLETION_INDEX": "3", "JOB_COMPLETIONS": "4"], "auto", 4, [24, 30], "kubernetes"),
      (["JOB_COMPLETION_INDEX": "0"], "auto/4", 1, [0, 7], "kubernetes"),
      (["PARALLEL_SEQ": "3", "PARALLEL_JOBSLOT": "1"], "auto/4", 3, [16, 23], "parallel"),
    ])
  func engines(
    environment: [String: String], shard: String, index: Int, frames: [Int], source: String
  )
    throws
  {
    defer { fixture.remove() }
    try #require(FileManager.default.isExecutableFile(atPath: arsim), "build arsim first")
    let (code, text, out) = try render(environment, shard)
    #expect(code == 0, "\(text)")
    let field = try shardField(out)
    #expect(field?["index"] as? Int == index)
    #expect(field?["count"] as? Int == 4)
    #expect(field?["frames"] as? [Int] == frames)
    #expect(field?["source"] as? String == source)
    #expect(
      try fixture.names(out).filter { $0.hasPrefix("frame_") }.count == frames[1] - frames[0] + 1)
  }

  @Test(
    "absent or inconsistent variables: exit 64 and a message naming them",
    arguments: [
      ([:], "auto", "no batch engine's variables are set"),
      (["PARALLEL_SEQ": "2"], "auto", "GNU parallel exports no job count"),
      (
        ["JOB_COMPLETION_INDEX": "1", "JOB_COMPLETIONS": "4"], "auto/3",
        "JOB_COMPLETIONS says 4 shards"
      ),
      (
        [
          "SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "3",
          "SLURM_ARRAY_TASK_COUNT": "2",
        ],
        "auto", "SLURM_ARRAY_TASK_COUNT=2"
      ),
      (["PARALLEL_SEQ": "35"], "auto/40", "31 frames cannot be split into 40 shards"),
      (["PARALLEL_SEQ": "1"], "auto/40", "31 frames cannot be split into 40 shards"),
      // Int64's extremes once trapped (exit 132) on MAX − MIN.
      (
        [
          "SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0",
          "SLURM_ARRAY_TASK_MAX": "9223372036854775807",
        ],
        "auto", "SLURM_ARRAY_TASK_MAX=9223372036854775807 is outside 0…4294967295"
      ),
    ])
  func errors(environment: [String: String], shard: String, expected: String) throws {
    defer { fixture.remove() }
    try #require(FileManager.default.isExecutableFile(atPath: arsim), "build arsim first")
    let (code, text, out) = try render(environment, shard)
    #expect(code == 64)
    #expect(text.contains(expected), "\(text)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test(
    "explicit --shard errors: 64",
    arguments: [["--shard", "5/4"], ["--shard", "0/4"], ["--shard", "2/4", "--frames", "0..31"]])
  func explicit(arguments: [String]) {
    defer { fixture.remove() }
    let result = fixture.arsim(["render", fixture.scene, "--out", fixture.root + "/o"] + arguments)
    #expect(result.code == 64, "\(result.standardError)")
  }

  @Test(
    "more shards than frames: 64 for every index, naming the limit",
    arguments: [
      ["--shard", "1/32"], ["--shard", "32/32"], ["--shard", "1/5", "--frames", "3..6"],
    ])
  func moreShardsThanFrames(arguments: [String]) {
    defer { fixture.remove() }
    let result = fixture.arsim(["render", fixture.scene, "--out", fixture.root + "/o"] + arguments)
    #expect(result.code == 64, "\(result.standardError)")
    #expect(result.standardError.contains("use at most"), "\(result.standardError)")
    #expect(!FileManager.default.fileExists(atPath: fixture.root + "/o/frame_00000.png"))
  }
}
