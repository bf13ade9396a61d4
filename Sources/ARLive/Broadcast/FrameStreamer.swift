import Foundation

/// Sends wire frames on a connected socket from a thread of its own, with ReplayKit-like
/// back-pressure: at most `capacity` frames are held (the one being sent and, with capacity
/// 2, one waiting); a frame offered while all are taken is dropped and counted, never queued
/// without bound. Capacity 1 is the seed's `guard !sending` exactly.
///
/// A send that fails (reset, closed, a receiver that stops reading for `sendTimeout`) ends
/// the stream: later offers throw that error.
public final class FrameStreamer: @unchecked Sendable {  // state under `condition`
  /// One frame that left: its sequence, bytes, and when it was offered and fully handed to the
  /// kernel.
  public struct Sent: Sendable {
    /// The output frame index.
    public var sequence: UInt64
    /// Header and payload bytes.
    public var bytes: Int
    /// When `offer` took it.
    public var offered: ContinuousClock.Instant
    /// When its last byte was taken by the kernel.
    public var sent: ContinuousClock.Instant
    /// Time spent making its bytes on the sending thread (`offer(sequence:makeBytes:)`).
    public var encode: Duration
  }

  private let connection: TCPConnection
  private let capacity: Int
  private let sendTimeout: Duration
  private let condition = NSCondition()
  private var waiting: [(UInt64, @Sendable () -> [UInt8], ContinuousClock.Instant)] = []
  private var sending = false
  private var finished = false
  private var failure: LiveError?
  private var thread: Thread?
  /// Frames dropped because the buffer was full, by sequence.
  public private(set) var dropped: [UInt64] = []
  /// Frames taken but never wholly sent because the stream broke: the one being sent when it
  /// broke (the first), then any that waited. Every offered frame is sent, dropped or here.
  /// Set by the sending thread, so read under the lock.
  public var unsent: [UInt64] {
    condition.lock()
    defer { condition.unlock() }
    return unsentFrames
  }
  private var unsentFrames: [UInt64] = []
  /// Frames sent, in order.
  private var sentFrames: [Sent] = []

  /// Starts the sending thread.
  /// Precondition: `capacity` is 1 or 2 (trap).
  public init(connection: TCPConnection, capacity: Int = 2, sendTimeout: Duration = .seconds(5)) {
    precondition((1...2).contains(capacity), "capacity 1 or 2")
    self.connection = connection
    self.capacity = capacity
    self.sendTimeout = sendTimeout
    let thread = Thread { [self] in self.loop() }
    thread.name = "arsim.live.send"
    self.thread = thread
    thread.start()
  }

  /// Whether a frame offered now would be kept (so a caller can skip converting one that would
  /// be dropped).
  public var hasRoom: Bool {
    condition.lock()
    defer { condition.unlock() }
    return waiting.count + (sending ? 1 : 0) < capacity
  }

  /// Offers a frame's wire bytes.
  /// - Returns: false when it was dropped (buffer full; counted in `dropped`).
  /// - Throws: the `LiveError` that ended the stream.
  @discardableResult
  public func offer(sequence: UInt64, bytes: [UInt8]) throws(LiveError) -> Bool {
    try offer(sequence: sequence) { bytes }
  }

  /// Offers a frame whose wire bytes `makeBytes` makes on the sending thread, just before they
  /// go out (the conversion then runs beside the next frame's render). A dropped frame's
  /// closure is never called.
  /// - Returns: false when it was dropped (buffer full; counted in `dropped`).
  /// - Throws: the `LiveError` that ended the stream.
  @discardableResult
  public func offer(sequence: UInt64, makeBytes: @escaping @Sendable () -> [UInt8])
    throws(LiveError) -> Bool
  {
    condition.lock()
    defer { condition.unlock() }
    if let failure { throw failure }
    guard waiting.count + (sending ? 1 : 0) < capacity else {
      dropped.append(sequence)
      return false
    }
    waiting.append((sequence, makeBytes, .now))
    condition.broadcast()
    return true
  }

  /// Records a frame dropped before conversion (`hasRoom` was false).
  public func recordDrop(sequence: UInt64) {
    condition.lock()
    dropped.append(sequence)
    condition.unlock()
  }

  /// Waits for the held frames to be sent (each within the send timeout), then ends the
  /// stream (shutdown of the sending direction) and returns the frames sent.
  /// - Throws: the `LiveError` that ended the stream early.
  public func finish() throws(LiveError) -> [Sent] {
    condition.lock()
    finished = true
    condition.broadcast()
    while sending || !waiting.isEmpty, failure == nil { condition.wait() }
    let failure = self.failure
    let sent = sentFrames
    condition.unlock()
    if let failure { throw failure }
    connection.shutdownSending()
    return sent
  }

  /// The frames sent so far (also after a failure).
  public var sent: [Sent] {
    condition.lock()
    defer { condition.unlock() }
    return sentFrames
  }

  private func loop() {
    while true {
      condition.lock()
      while waiting.isEmpty, !finished, failure == nil { condition.wait() }
      if waiting.isEmpty || failure != nil {
        condition.unlock()
        return
      }
      let (sequence, makeBytes, offered) = waiting.removeFirst()
      sending = true
      condition.unlock()
      let encodeStart = ContinuousClock.now
      let bytes = makeBytes()
      let encode = ContinuousClock.now - encodeStart
      var error: LiveError?
      do {
        try connection.send(bytes, timeout: sendTimeout)
      } catch let e {
        error =
          e.failure == .timedOut
          ? LiveError(.timedOut, "the receiver took no bytes for \(sendTimeout) (\(e.detail))")
          : e
      }
      condition.lock()
      sending = false
      if let error {
        failure = error
        unsentFrames = [sequence] + waiting.map(\.0)
        waiting.removeAll()
      } else {
        sentFrames.append(
          Sent(
            sequence: sequence, bytes: bytes.count, offered: offered, sent: .now, encode: encode))
      }
      condition.broadcast()
      condition.unlock()
    }
  }
}
