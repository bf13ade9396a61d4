import ARSupport

/// One of `count` contiguous, balanced parts of a run's frames, numbered from 1 as Playwright's
/// and Jest's `--shard I/N` are.
///
/// The split rule: a job of M frames starting at frame A is cut into N parts of q = M / N
/// frames (integer division); the first r = M mod N parts get one frame more. Part I (1…N)
/// therefore starts at A + (I − 1)·q + min(I − 1, r) and has q + 1 frames when I ≤ r, else q.
/// Example: 10 frames in 4 parts are 0…2, 3…5, 6…7, 8…9. Any two parts differ by at most one
/// frame, and the parts in order are the job's frames in order, so concatenating the parts'
/// line files in shard order is frame order.
public struct Shard: Hashable, Sendable, CustomStringConvertible {
  /// 1-based index, 1…count.
  public var index: Int
  /// Number of parts, ≥ 1.
  public var count: Int

  /// Creates a shard.
  /// - Throws: `ShardError` unless 1 ≤ index ≤ count.
  public init(index: Int, count: Int) throws {
    guard count >= 1 else { throw ShardError("the shard count must be at least 1, got \(count)") }
    guard (1...count).contains(index) else {
      throw ShardError("shard \(index)/\(count): the index must be in 1…\(count) (counted from 1)")
    }
    self.index = index
    self.count = count
  }

  /// `I/N`.
  public var description: String { "\(index)/\(count)" }

  /// This part's frames of `job` (inclusive), or nil for any part when there are more parts
  /// than frames (N > M: a split that leaves some part empty is refused as a whole, so the
  /// limit does not depend on I). A job of more frames than `Int` holds (`0...Int.max`, which
  /// no scene has) is nil too rather than a trap in `count`.
  public func frames(of job: ClosedRange<Int>) -> ClosedRange<Int>? {
    let (span, overflow) = job.upperBound.subtractingReportingOverflow(job.lowerBound)
    guard !overflow, span < Int.max else { return nil }
    let m = span + 1
    guard count <= m else { return nil }
    let q = m / count
    let r = m % count
    let first = job.lowerBound + (index - 1) * q + min(index - 1, r)
    let size = q + (index <= r ? 1 : 0)
    return size == 0 ? nil : first...(first + size - 1)
  }

  /// Parses `I/N` (`3/8`).
  /// - Throws: `ShardError` naming the text.
  public static func parse(_ text: String) throws -> Shard {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else {
      throw ShardError(
        "--shard \(InputText.quoted(text)): expected I/N (the I-th of N parts, I from 1), auto or auto/N"
      )
    }
    return try Shard(index: i, count: n)
  }
}

/// A wrong or missing shard specification (the command line turns it into exit 64).
public struct ShardError: Error, CustomStringConvertible, Equatable {
  /// The problem, naming the option or the environment variables.
  public var description: String
  /// Creates an error.
  public init(_ description: String) { self.description = description }
}
