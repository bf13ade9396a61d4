import Foundation

/// Listens on the loopback strokes port and feeds every framed message (`StrokeFraming`) into
/// a `LiveStrokeInbox`, one helper connection at a time, on a thread of its own.
///
/// A connection that sends a garbage length, resets, or stays silent longer than
/// `idleTimeout` is closed with a note; the listener then accepts the next one. Memory is
/// bounded by the framing limits and the inbox capacity.
public final class LiveStrokeListener: @unchecked Sendable {
  /// The bound address (the actual port when 0 was asked).
  public let endpoint: LoopbackEndpoint
  private let listener: TCPListener
  private let inbox: LiveStrokeInbox
  private let stop = StopSignal()
  private let done = NSCondition()
  private var running = true
  /// Longest silence of a connected helper before it is closed.
  public let idleTimeout: Duration

  /// Binds the port and starts accepting.
  /// - Throws: `LiveError` `.addressInUse`, `.system`.
  public init(
    endpoint: LoopbackEndpoint, inbox: LiveStrokeInbox, idleTimeout: Duration = .seconds(600)
  ) throws(LiveError) {
    listener = try TCPListener(endpoint: endpoint, stop: stop)
    self.endpoint = listener.endpoint
    self.inbox = inbox
    self.idleTimeout = idleTimeout
    let thread = Thread { [self] in self.serve() }
    thread.name = "arsim.live.strokes"
    thread.start()
  }

  /// Stops accepting and reading, and waits (at most 2 s) for the thread to end.
  public func close() {
    stop.request()
    done.lock()
    let deadline = Date(timeIntervalSinceNow: 2)
    while running, done.wait(until: deadline) {}
    done.unlock()
  }

  private func serve() {
    defer {
      done.lock()
      running = false
      done.broadcast()
      done.unlock()
    }
    while !stop.isRequested {
      let connection: TCPConnection
      do {
        connection = try listener.accept(timeout: .seconds(3600))
      } catch {
        if error.failure == .interrupted { return }
        continue
      }
      inbox.note("connected", "helper \(connection.peer) connected")
      read(connection)
    }
  }

  private func read(_ connection: TCPConnection) {
    var decoder = StrokeFraming.Decoder()
    while true {
      let bytes: [UInt8]
      do {
        bytes = try connection.receiveSome(maximum: 65536, timeout: idleTimeout)
      } catch {
        if error.failure != .interrupted {
          inbox.note(error.failure == .reset ? "reset" : "closed", error.description)
        }
        return
      }
      if bytes.isEmpty {
        let tail = decoder.isAtBoundary ? "" : " in the middle of a message (its bytes dropped)"
        inbox.note("closed", "helper \(connection.peer) closed the connection" + tail)
        return
      }
      for item in decoder.feed(bytes) {
        switch item {
        case .message(let data): inbox.receive(data)
        case .skipped(let length):
          inbox.note(
            "skipped",
            "a \(length)-byte message is over the \(StrokeFraming.maximumMessageBytes)-byte limit; skipped"
          )
        case .garbage(let length):
          inbox.note(
            "garbage",
            "length \(length) is over \(StrokeFraming.maximumSkippedBytes) bytes: not stroke "
              + "framing; connection closed")
          return
        }
      }
    }
  }
}
