import Testing

@testable import ARBatch

@Suite("Shard split rule")
struct ShardTests {
  func parts(_ job: ClosedRange<Int>, _ n: Int) throws -> [ClosedRange<Int>?] {
    try (1...n).map { try Shard(index: $0, count: n).frames(of: job) }
  }

  @Test("10 frames in 4 parts: the first two get the extra frame (by hand)")
  func tenInFour() throws {
    #expect(try parts(0...9, 4) == [0...2, 3...5, 6...7, 8...9])
  }

  @Test("a --frames job 14..29 in 4 parts of 4, and 301 frames in 3")
  func offsetJob() throws {
    #expect(try parts(14...29, 4) == [14...17, 18...21, 22...25, 26...29])
    // 301 = 3·100 + 1: part 1 has 101 frames.
    #expect(try parts(0...300, 3) == [0...100, 101...200, 201...300])
  }

  @Test("every split of up to 40 frames covers the job in order, sizes differ by at most one")
  func everySplit() throws {
    for first in [0, 7] {
      for m in 1...40 {
        let job = first...(first + m - 1)
        for n in 1...m {
          let ranges = try parts(job, n).compactMap { $0 }
          #expect(ranges.count == n)
          #expect(ranges.flatMap(Array.init) == Array(job))
          let sizes = ranges.map(\.count)
          #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1)
          #expect(sizes == sizes.sorted(by: >))  // the larger parts first
        }
      }
    }
  }

  @Test("more parts than frames: no part gets frames, whatever its index")
  func surplus() throws {
    #expect(try parts(0...2, 5) == [nil, nil, nil, nil, nil])
    #expect(try Shard(index: 1, count: 1000).frames(of: 0...300) == nil)
    #expect(try Shard(index: 1000, count: 1000).frames(of: 0...300) == nil)
    #expect(try Shard(index: 301, count: 301).frames(of: 0...300) == 300...300)
    // More frames than Int holds: no part rather than a trap in `count`.
    #expect(try Shard(index: 1, count: 2).frames(of: 0...Int.max) == nil)
    #expect(try Shard(index: 2, count: 2).frames(of: -1...Int.max) == nil)
  }

  @Test(
    "I/N parsing and its errors", arguments: ["0/4", "5/4", "1/0", "x/4", "3", "3/4/5", "-1/4", ""])
  func badText(text: String) {
    #expect(throws: ShardError.self) { try Shard.parse(text) }
  }

  @Test("3/8 parses")
  func parses() throws {
    #expect(try Shard.parse("3/8") == Shard(index: 3, count: 8))
    #expect(try Shard.parse("1/1").description == "1/1")
  }
}

@Suite("--shard auto: batch engines' environments")
struct ShardEnvironmentTests {
  func shard(_ environment: [String: String], count: Int? = nil) throws -> (Int, Int, String) {
    let (shard, source) = try ShardEnvironment.shard(environment: environment, count: count)
    return (shard.index, shard.count, source.rawValue)
  }

  func message(_ environment: [String: String], count: Int? = nil) -> String {
    do {
      _ = try ShardEnvironment.shard(environment: environment, count: count)
      return "no error"
    } catch {
      return "\(error)"
    }
  }

  static let slurm = [
    "SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "7",
    "SLURM_ARRAY_TASK_STEP": "2", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_JOB_ID": "77",
  ]

  @Test("Slurm --array=1-7:2, task 5: (5 − 1) / 2 + 1 = shard 3 of 4")
  func slurmStepped() throws {
    #expect(try shard(Self.slurm) == (3, 4, "slurm"))
    #expect(try shard(Self.slurm, count: 4) == (3, 4, "slurm"))
  }

  @Test("Slurm --array=0-15, task 0 and 15; without STEP and COUNT too")
  func slurmPlain() throws {
    let base = ["SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "15"]
    #expect(try shard(base.merging(["SLURM_ARRAY_TASK_ID": "0"]) { a, _ in a }) == (1, 16, "slurm"))
    #expect(
      try shard(
        base.merging([
          "SLURM_ARRAY_TASK_ID": "15", "SLURM_ARRAY_TASK_STEP": "1", "SLURM_ARRAY_TASK_COUNT": "16",
        ]) { a, _ in a }) == (16, 16, "slurm"))
  }

  @Test("Slurm: a list array (--array=1,4,5: COUNT 3, MAX − MIN + 1 = 5) is refused")
  func slurmList() {
    let list = [
      "SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "5",
      "SLURM_ARRAY_TASK_STEP": "1", "SLURM_ARRAY_TASK_COUNT": "3",
    ]
    let text = message(list)
    #expect(text.contains("SLURM_ARRAY_TASK_COUNT=3"), "\(text)")
    #expect(text.contains("not an evenly stepped range"), "\(text)")
  }

  @Test("Slurm: inconsistent or missing variables are refused, naming them")
  func slurmInconsistent() {
    var off = Self.slurm
    off["SLURM_ARRAY_TASK_ID"] = "4"  // not on the step of 2 from 1
    #expect(message(off).contains("SLURM_ARRAY_TASK_ID=4"))
    var outside = Self.slurm
    outside["SLURM_ARRAY_TASK_ID"] = "9"
    #expect(message(outside).contains("do not describe a task"))
    #expect(message(["SLURM_ARRAY_TASK_ID": "3"]).contains("_MIN or _MAX is not"))
    var text = Self.slurm
    text["SLURM_ARRAY_TASK_MAX"] = "seven"
    #expect(message(text).contains("SLURM_ARRAY_TASK_MAX='seven' is not an integer"))
    #expect(message(Self.slurm, count: 8).contains("says 4 shards"))
  }

  /// Every Slurm variable at Int64's extremes (and just past Slurm's 32-bit range) is refused
  /// naming it; before, MAX − MIN and (MAX − MIN) / STEP + 1 overflowed and trapped.
  @Test(
    "Slurm variables at Int64 extremes are refused naming the variable, never a trap",
    arguments: [
      ("SLURM_ARRAY_TASK_MAX", "9223372036854775807"),
      ("SLURM_ARRAY_TASK_MIN", "-9223372036854775808"),
      ("SLURM_ARRAY_TASK_ID", "9223372036854775807"),
      ("SLURM_ARRAY_TASK_STEP", "9223372036854775807"),
      ("SLURM_ARRAY_TASK_COUNT", "-9223372036854775808"), ("SLURM_ARRAY_TASK_MAX", "4294967296"),
    ])
  func slurmExtremes(variable: String, value: String) {
    var environment = [
      "SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3",
    ]
    environment[variable] = value
    let text = message(environment)
    #expect(text.contains("\(variable)=\(value) is outside 0…4294967295"), "\(text)")
    // Both extremes together, as a hostile environment would set them.
    let both = [
      "SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "-9223372036854775808",
      "SLURM_ARRAY_TASK_MAX": "9223372036854775807",
    ]
    #expect(message(both).contains("is outside 0…4294967295"))
  }

  @Test("Slurm at the top of its 32-bit range: the last task of 0-4294967295 is the last shard")
  func slurmLargest() throws {
    let top = [
      "SLURM_ARRAY_TASK_ID": "4294967295", "SLURM_ARRAY_TASK_MIN": "0",
      "SLURM_ARRAY_TASK_MAX": "4294967295",
    ]
    #expect(try shard(top) == (4_294_967_296, 4_294_967_296, "slurm"))
  }

  @Test(
    "Kubernetes Indexed Job: JOB_COMPLETION_INDEX 2 is shard 3, N from auto/N or JOB_COMPLETIONS")
  func kubernetes() throws {
    #expect(try shard(["JOB_COMPLETION_INDEX": "2"], count: 4) == (3, 4, "kubernetes"))
    #expect(
      try shard(["JOB_COMPLETION_INDEX": "0", "JOB_COMPLETIONS": "6"]) == (1, 6, "kubernetes"))
    #expect(
      try shard(["JOB_COMPLETION_INDEX": "5", "JOB_COMPLETIONS": "6"], count: 6) == (
        6, 6, "kubernetes"
      ))
  }

  @Test("Kubernetes: no count, a count that disagrees, an index past the count")
  func kubernetesErrors() {
    #expect(message(["JOB_COMPLETION_INDEX": "2"]).contains("use --shard auto/N"))
    #expect(
      message(["JOB_COMPLETION_INDEX": "2", "JOB_COMPLETIONS": "4"], count: 5).contains(
        "JOB_COMPLETIONS says 4 shards"))
    #expect(message(["JOB_COMPLETION_INDEX": "4"], count: 4).contains("not below the 4"))
    #expect(message(["JOB_COMPLETION_INDEX": "-1"], count: 4).contains("≥ 0"))
  }

  @Test("GNU parallel: PARALLEL_SEQ 3 with auto/4 (the job slot is ignored)")
  func parallel() throws {
    #expect(
      try shard(["PARALLEL_SEQ": "3", "PARALLEL_JOBSLOT": "1"], count: 4) == (3, 4, "parallel"))
    #expect(message(["PARALLEL_SEQ": "3"]).contains("--shard {#}/N"))
    #expect(message(["PARALLEL_SEQ": "5"], count: 4).contains("above 4"))
    #expect(message(["PARALLEL_SEQ": "0"], count: 4).contains("≥ 1"))
  }

  @Test("no engine, and two engines at once, are refused")
  func noneOrTwo() {
    let none = message(["HOME": "/root", "PARALLEL_JOBSLOT": "2"], count: 4)
    #expect(none.contains("no batch engine's variables are set"), "\(none)")
    #expect(none.contains("--shard I/N"))
    var both = Self.slurm
    both["PARALLEL_SEQ"] = "1"
    #expect(message(both, count: 4).contains("slurm and parallel are set at once"))
  }
}
