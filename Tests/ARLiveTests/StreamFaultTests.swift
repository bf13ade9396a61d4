import ARLive
import ARRender
import ARReplay
import ARSession
import ARTestSupport
import Foundation
import Testing

/// Back-pressure and broken peers on the sending side, and ARSim ↔ ARSim at the library level.
@Suite struct StreamFaultTests {
  /// A connected sender/app pair on a fresh port; the app side is returned unread.
  func pair(stop: StopSignal = StopSignal()) throws -> (TCPConnection, TCPConnection) {
    let listener = try TCPListener(endpoint: LoopbackEndpoint(port: 0), stop: stop)
    let acceptor = BroadcastAcceptor(peerToken: "EXT", myToken: "APP")
    let app = Background { try acceptor.accept(on: listener) }
    let sender = BroadcastSender(
      endpoint: listener.endpoint, transmissionToken: "EXT", receptionToken: "APP", stop: stop)
    let connection = try sender.connect()
    return (connection, try app.value(seconds: 5))
  }

  @Test(
    "a receiver that never reads: frames are dropped while one is in flight, then the send times out"
  )
  func receiverNeverReads() throws {
    let (connection, app) = try pair()
    connection.setSendBufferBytes(16 * 1024)
    let streamer = FrameStreamer(connection: connection, sendTimeout: .milliseconds(300))
    let frame = WireFrame.encode(
      Image(width: 256, height: 256), format: .bgra, sequence: 0, presentationMicroseconds: 0)
    var failure: LiveError?
    let start = ContinuousClock.now
    var sequence: UInt64 = 0
    while failure == nil, ContinuousClock.now - start < .seconds(5) {
      do {
        try streamer.offer(sequence: sequence, bytes: frame)
      } catch {
        failure = error
      }
      sequence += 1
      usleep(2000)
    }
    #expect(failure?.failure == .timedOut)
    #expect(failure?.detail.contains("took no bytes") == true)
    #expect(!streamer.dropped.isEmpty)
    // Never more than two frames held: every offer beyond them was dropped, not queued.
    #expect(UInt64(streamer.sent.count + streamer.dropped.count + 2) >= sequence - 1)
    // Every frame offered before the failing offer is sent, dropped or unsent, once: the one
    // whose send broke first, then the one that waited (the summary once lost them).
    let accounted = streamer.sent.map(\.sequence) + streamer.dropped + streamer.unsent
    #expect(accounted.count == Int(sequence - 1))
    #expect(Set(accounted) == Set(0..<(sequence - 1)))
    #expect((1...2).contains(streamer.unsent.count))
    #expect(streamer.unsent == streamer.unsent.sorted())
    #expect(ContinuousClock.now - start < .seconds(4))
    withExtendedLifetime(app) {}
  }

  @Test("capacity 1 is the seed's rule: a frame offered while one is being sent is dropped")
  func seedCapacity() throws {
    let (connection, app) = try pair()
    connection.setSendBufferBytes(4096)
    let streamer = FrameStreamer(connection: connection, capacity: 1, sendTimeout: .seconds(2))
    let big = WireFrame.encode(
      Image(width: 512, height: 512), format: .bgra, sequence: 0, presentationMicroseconds: 0)
    #expect(try streamer.offer(sequence: 0, bytes: big))
    usleep(50_000)  // the first frame is stuck in send: the app reads nothing yet
    #expect(!streamer.hasRoom)
    #expect(try streamer.offer(sequence: 1, bytes: big) == false)
    #expect(streamer.dropped == [1])
    // The app drains: the held frame leaves and the stream ends cleanly.
    let drained = Background { () throws -> Int in
      var total = 0
      while true {
        let chunk = try app.receiveSome(maximum: 1 << 16, timeout: .seconds(3))
        if chunk.isEmpty { return total }
        total += chunk.count
      }
    }
    #expect(try streamer.finish().map(\.sequence) == [0])
    #expect(try drained.value() == big.count)
  }

  @Test("an app that resets the connection ends the stream with 'reset'")
  func reset() throws {
    let (connection, app) = try pair()
    app.resetOnClose()
    app.close()
    let streamer = FrameStreamer(connection: connection, sendTimeout: .seconds(2))
    let frame = WireFrame.encode(
      Image(width: 64, height: 64), format: .i420, sequence: 0, presentationMicroseconds: 0)
    var failure: LiveError?
    for sequence in 0..<500 where failure == nil {
      do { try streamer.offer(sequence: UInt64(sequence), bytes: frame) } catch { failure = error }
      usleep(2000)
    }
    #expect(failure?.failure == .reset, "\(String(describing: failure))")
  }

  @Test("a sender that resets mid-frame: the receiver reports 'reset' and keeps the whole frames")
  func receiverSeesReset() throws {
    let folder = TemporaryFolder("live-rx-reset").path
    var options = FrameReceiver.Options(
      endpoint: LoopbackEndpoint(port: 0),
      acceptor: BroadcastAcceptor(peerToken: "EXT", myToken: "APP", acceptTimeout: .seconds(5)),
      outputDirectory: folder)
    options.stop = StopSignal()
    options.idleTimeout = .seconds(3)
    let bound = PortBox()
    let receiverOptions = options
    let receiver = Background { try FrameReceiver(options: receiverOptions).run { bound.set($0) } }
    let sender = BroadcastSender(
      endpoint: try bound.wait(), transmissionToken: "EXT", receptionToken: "APP")
    let connection = try sender.connect()
    let frame = WireFrame.encode(
      Image(width: 8, height: 8), format: .i420, sequence: 0, presentationMicroseconds: 0)
    try connection.send(frame, timeout: .seconds(2))
    try connection.send(Array(frame.prefix(50)), timeout: .seconds(2))
    usleep(100_000)  // both sends arrive before the reset
    connection.resetOnClose()
    connection.close()
    let summary = try receiver.value()
    #expect(summary.frames == 1)
    #expect(summary.failure?.failure == .reset, "\(String(describing: summary.failure))")
    #expect(FileManager.default.fileExists(atPath: folder + "/frame_00000.png"))
  }

  @Test("Ctrl-C's stop signal ends a blocked send and a waiting accept at once")
  func stopSignal() throws {
    let stop = StopSignal()
    let listener = try TCPListener(endpoint: LoopbackEndpoint(port: 0), stop: stop)
    let waiting = Background { () throws -> Bool in
      do {
        _ = try listener.accept(timeout: .seconds(30))
        return false
      } catch {
        return (error as? LiveError)?.failure == .interrupted
      }
    }
    usleep(50_000)
    let start = ContinuousClock.now
    stop.request()
    #expect(try waiting.value(seconds: 3))
    #expect(ContinuousClock.now - start < .seconds(1))
    #expect(stop.isRequested)
  }

  @Test("ARSim to ARSim: FrameReceiver gets every frame the streamer sent, pixels within 2 levels")
  func arsimToARSim() throws {
    let folder = TemporaryFolder("live-a2a").path
    let stop = StopSignal()
    var options = FrameReceiver.Options(
      endpoint: LoopbackEndpoint(port: 0),
      acceptor: BroadcastAcceptor(peerToken: "EXT", myToken: "APP", acceptTimeout: .seconds(5)),
      outputDirectory: folder)
    options.stop = stop
    options.idleTimeout = .seconds(3)
    let bound = PortBox()
    let receiverOptions = options
    let receiver = Background { try FrameReceiver(options: receiverOptions).run { bound.set($0) } }
    let endpoint = try bound.wait()
    let sender = BroadcastSender(
      endpoint: endpoint, transmissionToken: "EXT", receptionToken: "APP", stop: stop)
    let streamer = FrameStreamer(connection: try sender.connect())
    var images: [Image] = []
    for sequence in 0..<5 {
      var image = Image(width: 7, height: 5, fill: (UInt8(sequence * 40), 100, 200, 255))
      image[3, 2] = (255, 255, 255, 255)
      images.append(image)
      while !streamer.hasRoom { usleep(500) }
      try streamer.offer(
        sequence: UInt64(sequence),
        bytes: WireFrame.encode(
          image, format: sequence % 2 == 0 ? .i420 : .bgra, sequence: UInt64(sequence),
          presentationMicroseconds: Int64(sequence) * 16_667))
    }
    _ = try streamer.finish()
    let summary = try receiver.value()
    #expect(summary.frames == 5 && summary.gaps.isEmpty && summary.failure == nil)
    for (sequence, image) in images.enumerated() {
      let got = try Image(contentsOfPNG: folder + "/frame_0000\(sequence).png")
      let worst = zip(got.pixels, image.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
      // I420 halves the chroma: the white pixel's block is averaged with its neighbours.
      let flat =
        zip(got.pixels, image.pixels).enumerated().filter { i, _ in
          let pixel = i / 4
          return abs(pixel % 7 - 3) > 1 || abs(pixel / 7 - 2) > 1
        }.map { abs(Int($0.1.0) - Int($0.1.1)) }.max() ?? 0
      #expect(sequence % 2 == 1 ? worst == 0 : flat <= 2, "frame \(sequence)")
    }
  }
}

/// The port a receiver bound, handed from its thread to the test.
final class PortBox: @unchecked Sendable {
  private let condition = NSCondition()
  private var endpoint: LoopbackEndpoint?
  func set(_ e: LoopbackEndpoint) {
    condition.lock()
    endpoint = e
    condition.broadcast()
    condition.unlock()
  }
  func wait() throws -> LoopbackEndpoint {
    condition.lock()
    defer { condition.unlock() }
    let deadline = Date(timeIntervalSinceNow: 5)
    while endpoint == nil, condition.wait(until: deadline) {}
    return try #require(endpoint)
  }
}

/// `render --strokes-port`'s sink sits after the PNG writer: a frame it is handed is on disk.
@Suite struct HandoverClockSinkTests {
  @Test("Ctrl-C: the frame handed over when the stop is seen is counted, then the run ends")
  func stopCountsTheWrittenFrame() throws {
    let stop = StopSignal()
    let sink = HandoverClockSink(
      schedule: FrameSchedule(arFrameRate: 60, fps: 30, frameCount: 10), stop: stop)
    func frame(_ n: Int) -> OutputFrame {
      OutputFrame(
        frame: n, t: Double(n) / 30,
        rendered: RenderedFrame(image: Image(width: 1, height: 1), depth: nil), traceLine: "",
        eventLines: "")
    }
    try sink.submit(frame(0))
    try sink.submit(frame(1))
    stop.request()
    let error = #expect(throws: LiveError.self) { try sink.submit(frame(2)) }
    #expect(error?.failure == .interrupted)
    #expect(sink.handovers.map(\.frame) == [0, 1, 2])
    #expect(sink.handovers.map(\.tick) == [0, 2, 4])
  }
}
