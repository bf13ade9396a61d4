/// The delivery times of the last second, for the data stream's rate check (Agora's data
/// stream allows 30 messages per second; the remote-assist session warns beyond that).
///
/// A sliding window over non-decreasing times: a queue in an array with a head index, so each
/// time is appended once and dropped once — amortised O(1) per message, where rebuilding the
/// window on every message made a dense log quadratic (10⁶ messages within 2 s).
struct MessageRateWindow: Sendable {
  /// The window's length in microseconds: a time `t` is in it while `now − t < length`.
  let lengthMicroseconds: Int64
  private var times: [Int64] = []
  private var head = 0
  /// Array elements appended, dropped or moved so far (the work the window did, for tests).
  private(set) var elementOperations = 0

  init(lengthMicroseconds: Int64 = 1_000_000) { self.lengthMicroseconds = lengthMicroseconds }

  /// Times in the window.
  var count: Int { times.count - head }

  /// Adds a delivery at `now` (µs, never before the previous one) and drops the times that
  /// left the window; returns the count in it afterwards.
  mutating func record(_ now: Int64) -> Int {
    times.append(now)
    elementOperations += 1
    while head < times.count, times[head] <= now - lengthMicroseconds {
      head += 1
      elementOperations += 1
    }
    // Compact once the dropped prefix is most of the array: each move is paid for by a drop.
    if head > 1024, head * 2 > times.count {
      elementOperations += times.count - head
      times.removeFirst(head)
      head = 0
    }
    return count
  }
}
