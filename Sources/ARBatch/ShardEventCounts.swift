import ARSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension ShardMerge {
  /// Checks each shard's `events.jsonl` against its `run.json` `events`, as `trace.jsonl` is
  /// checked against its frames: a shortened or emptied file would otherwise merge into a
  /// folder whose `run.json` counts more events than it holds.
  ///
  /// A shard's `events` counts every scene event from τ = 0 to its last frame (its skipped
  /// ticks too) plus the recorded background's events of its own frames, while its file has
  /// only the events of its frames. So, shards in frame order: the file has at most `events`
  /// lines; the first shard of a job from frame 0 has exactly `events`; and shard k has at
  /// least `events(k) − events(k − 1)` (more by the background events of shard k − 1's frames).
  /// - Throws: `InputError` `.badData` naming the shard's `events.jsonl` and both counts;
  ///   `.missingInput` when it cannot be read.
  static func checkEventCounts(_ shards: [ShardRun]) throws {
    var previous: Int?
    for (position, run) in shards.enumerated() {
      guard let events = run.run["events"]?.integerValue else { return }  // a multi-view top
      let path = run.directory + "/events.jsonl"
      let lines = try lineCount(path)
      var expected: String?
      if lines > events {
        expected = "at most \(events)"
      } else if position == 0, run.expectedFrames?.lowerBound == 0, lines != events {
        expected = "\(events)"
      } else if let previous, lines < events - previous {
        expected = "at least \(events - previous) (\(events) − the previous shard's \(previous))"
      }
      if let expected {
        throw InputError(
          .badData, InputLocation(file: path),
          "shard \(run.shard): has \(lines) lines, but its run.json's events say \(expected): "
            + "the file is cut or was changed after the render; render the shard again")
      }
      previous = events
    }
  }

  /// Newline-terminated lines of the file at `path`.
  static func lineCount(_ path: String) throws -> Int {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw InputError(.missingInput, InputLocation(file: path), String(cString: strerror(errno)))
    }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var count = 0
    while true {
      let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0, errno == EINTR { continue }
      guard n > 0 else { break }
      for byte in buffer[0..<n] where byte == 0x0A { count += 1 }
    }
    return count
  }
}
