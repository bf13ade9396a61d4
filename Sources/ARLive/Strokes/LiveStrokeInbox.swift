import ARFormats
import ARReplay
import ARSession
import ARSupport
import Foundation

/// Stroke messages that arrived on the live strokes port, waiting for their AR tick.
///
/// Each message is stamped on arrival with its arrival time τ: microseconds of the replay clock
/// since `start`, but never at or before a tick already delivered (`deliveredThrough`). The
/// stamping and the delivery take the same lock, so a message is delivered at the first tick
/// with τ ≥ its stamp, exactly as the same message in a stroke log file with `t` = stamp:
/// replaying the recorded log offline delivers every message at the same tick.
public final class LiveStrokeInbox: @unchecked Sendable {  // state under `lock`
  /// A delivered message with its arrival instant (latency measurement).
  public struct Delivery: Sendable {
    /// The message; `t` is its arrival τ (seconds, whole microseconds).
    public var message: StrokeMessage
    /// When it was read from the socket.
    public var arrived: ContinuousClock.Instant
    /// The AR tick τ (microseconds) that delivered it.
    public var deliveredMicroseconds: Int64
  }

  /// A connection note for `events.jsonl` (`live-strokes` events).
  public struct Note: Sendable {
    /// Arrival τ, microseconds.
    public var microseconds: Int64
    /// What happened (`connected`, `closed`, `skipped`, `garbage`, `overflow`, …).
    public var kind: String
    /// Words.
    public var detail: String
  }

  /// Most messages waiting at once; more are dropped with an `overflow` note (memory bound).
  public static let capacity = 256

  private let lock = NSLock()
  private var start: ContinuousClock.Instant?
  private var waiting: [(StrokeMessage, ContinuousClock.Instant)] = []
  private var notes: [Note] = []
  private var deliveredThrough: Int64 = -1
  private var deliveries: [Delivery] = []
  private var overflowCount = 0
  private var isFinished = false
  private var lateCount = 0

  /// Creates an inbox whose replay clock starts at `start` (nil: not yet; messages arriving
  /// before `begin(at:)` are stamped 0, due at the first tick).
  public init(start: ContinuousClock.Instant?) { self.start = start }

  /// Starts the replay clock (τ = 0 at `instant`).
  public func begin(at instant: ContinuousClock.Instant) {
    lock.lock()
    start = instant
    lock.unlock()
  }

  private func stampLocked() -> Int64 {
    guard let start else { return deliveredThrough + 1 }
    let elapsed = ContinuousClock.now - start
    let (s, attoseconds) = elapsed.components
    let microseconds = s * 1_000_000 + attoseconds / 1_000_000_000_000
    return max(microseconds, deliveredThrough + 1)
  }

  /// Stamps and queues a message (dropped with a note when `capacity` are waiting).
  public func receive(_ data: [UInt8]) {
    lock.lock()
    defer { lock.unlock() }
    // After the last tick (`finish`) nothing can deliver it: counted, not kept.
    guard !isFinished else {
      lateCount += 1
      return
    }
    let stamp = stampLocked()
    guard waiting.count < Self.capacity else {
      overflowCount += 1
      if overflowCount == 1 || overflowCount % 1000 == 0 {
        notes.append(
          Note(
            microseconds: stamp, kind: "overflow",
            detail:
              "\(Self.capacity) messages already wait for their tick; \(overflowCount) dropped so far"
          ))
      }
      return
    }
    waiting.append((StrokeMessage(t: ReplayTime.seconds(stamp), data: data), .now))
  }

  /// Records a connection note.
  public func note(_ kind: String, _ detail: String) {
    lock.lock()
    defer { lock.unlock() }
    notes.append(Note(microseconds: stampLocked(), kind: kind, detail: detail))
  }

  /// The messages due by tick τ = `microseconds`, in arrival order, numbered from 1 in delivery
  /// order (`line`), and the notes so far.
  public func take(through microseconds: Int64) -> (messages: [StrokeMessage], notes: [Note]) {
    lock.lock()
    defer { lock.unlock() }
    deliveredThrough = max(deliveredThrough, microseconds)
    var due: [StrokeMessage] = []
    var index = 0
    while index < waiting.count,
      ReplayTime.microseconds(waiting[index].0.t) <= microseconds
    {
      var (message, arrived) = waiting[index]
      // Its line in the received log (`strokeLog`), as a stroke log file's messages carry
      // theirs: trace.jsonl's `strokeLine` then matches an offline replay of that log.
      message.line = deliveries.count + 1
      due.append(message)
      deliveries.append(
        Delivery(message: message, arrived: arrived, deliveredMicroseconds: microseconds))
      index += 1
    }
    waiting.removeFirst(index)
    let taken = notes
    notes = []
    return (due, taken)
  }

  /// Every message delivered so far, in order.
  public var delivered: [Delivery] {
    lock.lock()
    defer { lock.unlock() }
    return deliveries
  }

  /// Messages dropped because the inbox was full.
  public var overflowed: Int {
    lock.lock()
    defer { lock.unlock() }
    return overflowCount
  }

  /// Ends delivery after the run's last tick and returns how many messages then wait: they
  /// arrived after that tick (a late or slowed run) and no frame will show them. Later
  /// arrivals are only counted (`undelivered`).
  public func finish() -> Int {
    lock.lock()
    defer { lock.unlock() }
    if !isFinished {
      isFinished = true
      lateCount += waiting.count
      waiting = []
    }
    return lateCount
  }

  /// Messages read from the port that no tick delivered: waiting at `finish` or arriving
  /// after it (0 before `finish`).
  public var undelivered: Int {
    lock.lock()
    defer { lock.unlock() }
    return lateCount
  }

  /// The delivered messages as a stroke log (`t` = arrival τ): replayed offline it gives the
  /// same frames.
  public var strokeLog: StrokeLog { StrokeLog(messages: delivered.map(\.message)) }
}
