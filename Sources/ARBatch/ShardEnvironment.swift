import ARSupport

/// Finds which shard this process is from the environment a batch engine sets
/// (`arsim render --shard auto[/N]`).
///
/// | engine | variables | shard I | count N |
/// |---|---|---|---|
/// | Slurm job array | `SLURM_ARRAY_TASK_ID`, `_MIN`, `_MAX`, `_STEP`, `_COUNT` | (ID − MIN) / STEP + 1 | COUNT, or (MAX − MIN) / STEP + 1 |
/// | Kubernetes Indexed Job | `JOB_COMPLETION_INDEX` (from 0) | index + 1 | `auto/N`, or `JOB_COMPLETIONS` passed to the pod |
/// | GNU parallel | `PARALLEL_SEQ` (the job's sequence number, from 1; not the reused `PARALLEL_JOBSLOT`) | PARALLEL_SEQ | `auto/N` (parallel exports no job count; `--shard {#}/N` is the explicit form, `{#}` being the same sequence number) |
///
/// GitHub Actions matrices set no index: pass `--shard ${{ matrix.shard }}/N`. Sources: the
/// `sbatch` manual ("OUTPUT ENVIRONMENT VARIABLES"), Kubernetes' Job documentation ("Completion
/// mode: Indexed"), GNU parallel's manual (`$PARALLEL_SEQ`, `{#}`).
public enum ShardEnvironment {
  /// The engine the shard came from, for messages and `run.json` (`shard.source`).
  public enum Source: String, Sendable {
    case slurm, kubernetes, parallel
  }

  /// The shard the environment names.
  /// - Parameters:
  ///   - environment: the process environment (`ProcessInfo.processInfo.environment`).
  ///   - count: N from `--shard auto/N`, if given; it must agree with the engine's own count.
  /// - Throws: `ShardError` when no engine's variables are set, when two engines' are, or when
  ///   they are malformed or inconsistent (each message names the variables and values).
  public static func shard(environment: [String: String], count: Int?) throws -> (
    Shard, Source
  ) {
    var found: [(Source, () throws -> Shard)] = []
    if environment["SLURM_ARRAY_TASK_ID"] != nil {
      found.append((.slurm, { try slurm(environment, count: count) }))
    }
    if environment["JOB_COMPLETION_INDEX"] != nil {
      found.append((.kubernetes, { try kubernetes(environment, count: count) }))
    }
    if environment["PARALLEL_SEQ"] != nil {
      found.append((.parallel, { try parallel(environment, count: count) }))
    }
    guard let (source, make) = found.first else {
      throw ShardError(
        "--shard auto: no batch engine's variables are set (SLURM_ARRAY_TASK_ID for a Slurm "
          + "job array, JOB_COMPLETION_INDEX for a Kubernetes Indexed Job, PARALLEL_SEQ under "
          + "GNU parallel); give the shard as --shard I/N")
    }
    guard found.count == 1 else {
      let names = found.map(\.0.rawValue).joined(separator: " and ")
      throw ShardError(
        "--shard auto: the variables of \(names) are set at once, so the shard is ambiguous; "
          + "give it as --shard I/N")
    }
    return (try make(), source)
  }

  /// Slurm's array task ids, minimum, maximum, step and count are 32-bit unsigned
  /// (`uint32_t` in Slurm); bounding them so keeps every sum and difference below from
  /// overflowing.
  static let slurmValues: ClosedRange<Int> = 0...Int(UInt32.max)

  /// `name`'s value as an integer in `range`, nil when unset.
  /// - Throws: `ShardError` naming the variable for text that is not an integer or a value
  ///   outside `range` (environment values are input: an extreme one must not trap).
  private static func integer(
    _ environment: [String: String], _ name: String, in range: ClosedRange<Int> = Int.min...Int.max
  ) throws -> Int? {
    guard let text = environment[name] else { return nil }
    guard let value = Int(text) else {
      throw ShardError("--shard auto: \(name)=\(InputText.quoted(text)) is not an integer")
    }
    guard range.contains(value) else {
      throw ShardError(
        "--shard auto: \(name)=\(value) is outside \(range.lowerBound)…\(range.upperBound)")
    }
    return value
  }

  private static func agree(_ count: Int?, _ engineCount: Int, _ what: String) throws {
    if let count, count != engineCount {
      throw ShardError(
        "--shard auto/\(count): \(what) says \(engineCount) shards; drop /\(count) or make them agree"
      )
    }
  }

  static func slurm(_ environment: [String: String], count: Int?) throws -> Shard {
    guard let id = try integer(environment, "SLURM_ARRAY_TASK_ID", in: slurmValues) else {
      throw ShardError("--shard auto: SLURM_ARRAY_TASK_ID is not set")
    }
    guard let minimum = try integer(environment, "SLURM_ARRAY_TASK_MIN", in: slurmValues),
      let maximum = try integer(environment, "SLURM_ARRAY_TASK_MAX", in: slurmValues)
    else {
      throw ShardError(
        "--shard auto: SLURM_ARRAY_TASK_ID=\(id) is set but SLURM_ARRAY_TASK_MIN or _MAX is "
          + "not (Slurm sets all three in an array task)")
    }
    let step = try integer(environment, "SLURM_ARRAY_TASK_STEP", in: slurmValues) ?? 1
    let values =
      "SLURM_ARRAY_TASK_ID=\(id), _MIN=\(minimum), _MAX=\(maximum), _STEP=\(step)"
    guard step >= 1, minimum <= maximum, (minimum...maximum).contains(id),
      (id - minimum) % step == 0
    else {
      throw ShardError(
        "--shard auto: \(values) do not describe a task of an evenly stepped array MIN-MAX:STEP")
    }
    let stepped = (maximum - minimum) / step + 1
    if let listed = try integer(environment, "SLURM_ARRAY_TASK_COUNT", in: slurmValues),
      listed != stepped
    {
      throw ShardError(
        "--shard auto: \(values) give \(stepped) tasks but SLURM_ARRAY_TASK_COUNT=\(listed): "
          + "the array is not an evenly stepped range (a list such as --array=1,4,5?); "
          + "use --array=MIN-MAX[:STEP] or give --shard I/N")
    }
    try agree(count, stepped, "the Slurm array (\(values))")
    return try Shard(index: (id - minimum) / step + 1, count: stepped)
  }

  static func kubernetes(_ environment: [String: String], count: Int?) throws -> Shard {
    guard let index = try integer(environment, "JOB_COMPLETION_INDEX"), index >= 0 else {
      throw ShardError("--shard auto: JOB_COMPLETION_INDEX must be an integer ≥ 0")
    }
    let completions = try integer(environment, "JOB_COMPLETIONS")
    if let completions { try agree(count, completions, "JOB_COMPLETIONS") }
    guard let n = count ?? completions else {
      throw ShardError(
        "--shard auto: JOB_COMPLETION_INDEX=\(index) gives the index but not the count: "
          + "use --shard auto/N with the Job's completions, or pass JOB_COMPLETIONS to the pod")
    }
    guard index < n else {
      throw ShardError(
        "--shard auto: JOB_COMPLETION_INDEX=\(index) is not below the \(n) completions")
    }
    return try Shard(index: index + 1, count: n)
  }

  static func parallel(_ environment: [String: String], count: Int?) throws -> Shard {
    guard let sequence = try integer(environment, "PARALLEL_SEQ"), sequence >= 1 else {
      throw ShardError("--shard auto: PARALLEL_SEQ must be an integer ≥ 1")
    }
    guard let count else {
      throw ShardError(
        "--shard auto: PARALLEL_SEQ=\(sequence) gives the index but GNU parallel exports no "
          + "job count: use --shard auto/N or --shard {#}/N")
    }
    guard sequence <= count else {
      throw ShardError("--shard auto/\(count): PARALLEL_SEQ=\(sequence) is above \(count)")
    }
    return try Shard(index: sequence, count: count)
  }
}
