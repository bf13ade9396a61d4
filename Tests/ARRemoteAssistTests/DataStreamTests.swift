import ARFormats
import ARRemoteAssist
import ARReplay
import ARSimCLI
import ARSupport
import ARTestSupport
import Foundation
import Testing

/// The stroke messages through the session core's simulated network, configured as the app's
/// Agora data stream: reliable, ordered, 30 packets/s, 1 KB per packet, 6 KB/s per client.
@Suite struct DataStreamTests {
  private func drain(_ source: DataStreamSource, until seconds: Double) -> (
    arrivals: [(t: Double, message: StrokeMessage)], notices: [DataStreamSource.Notice]
  ) {
    var arrivals: [(Double, StrokeMessage)] = []
    var notices: [DataStreamSource.Notice] = []
    // 60 Hz ticks, bounded.
    for tick in 0...Int(seconds * 60) {
      let us = Int64((Double(tick) / 60 * 1e6).rounded())
      notices += source.notices(dueBy: us)
      while let m = source.nextMessage(dueBy: us) { arrivals.append((Double(us) / 1e6, m)) }
    }
    return (arrivals, notices)
  }

  private func messages(_ count: Int, every interval: Double, bytes: Int = 20) -> [StrokeMessage] {
    (0..<count).map { i in
      StrokeMessage(
        t: Double(i) * interval, text: String(repeating: "x", count: bytes), line: i + 1)
    }
  }

  @Test("lossless: each message arrives at the first tick at or after t + latency, in order")
  func lossless() {
    var configuration = DataStreamSource.Configuration()
    configuration.latency = 0.1
    let sent = messages(10, every: 0.05)
    let source = DataStreamSource(messages: sent, configuration: configuration)
    let (arrivals, notices) = drain(source, until: 2)
    #expect(notices.isEmpty)
    #expect(arrivals.map(\.message.line) == Array(1...10))
    for (arrival, message) in zip(arrivals, sent) {
      // The tick of t + 0.1: k = ⌈(t + 0.1)·60⌉ (t·60 and 6 are whole numbers here up to rounding).
      let due = ((message.t + 0.1) * 60 - 1e-9).rounded(.up) / 60
      #expect(abs(arrival.t - due) < 1e-6, "line \(message.line)")
    }
  }

  @Test("losses become delays: retransmitted every 0.1 s, never reordered, each with an event")
  func lossIsDelay() throws {
    var configuration = DataStreamSource.Configuration()
    configuration.latency = 0.05
    configuration.loss = 0.4
    configuration.seed = 7
    let sent = messages(25, every: 1.0 / 30)
    let (arrivals, notices) = drain(
      DataStreamSource(messages: sent, configuration: configuration), until: 4)
    #expect(arrivals.map(\.message.line) == Array(1...25))  // reliable and ordered: all, in order
    let retransmitted = notices.filter { $0.name == "stream-retransmitted" }
    #expect(retransmitted.count >= 5)  // ~40 % of 25 with this seed
    #expect(!notices.contains { $0.name == "stream-error" })
    for notice in retransmitted {
      let fields = Dictionary(uniqueKeysWithValues: notice.fields.map { ($0.0, $0.1) })
      guard case .integer(let attempts)? = fields["attempts"],
        case .number(let delay)? = fields["delay"],
        case .integer(let line)? = fields["line"]
      else {
        Issue.record("fields \(notice.fields)")
        continue
      }
      // Each lost attempt waits one interval; the link adds its latency.
      #expect(delay >= Double(attempts - 1) * 0.1 + 0.05 - 1e-9, "line \(line)")
      #expect(abs(Double(notice.microseconds) / 1e6 - (sent[line - 1].t + delay)) < 1e-6)
    }
    for (a, b) in zip(arrivals, arrivals.dropFirst()) { #expect(a.t <= b.t) }
  }

  @Test("a stream that never gets through gives up after 5 s with an error per message")
  func givesUp() {
    var configuration = DataStreamSource.Configuration()
    configuration.loss = 1
    let sent = messages(3, every: 0.5)
    let (arrivals, notices) = drain(
      DataStreamSource(messages: sent, configuration: configuration), until: 7)
    #expect(arrivals.isEmpty)
    #expect(notices.map(\.name) == ["stream-error", "stream-error", "stream-error"])
    #expect(notices.map(\.microseconds) == [5_000_000, 5_500_000, 6_000_000])
  }

  @Test("the data stream's limits: 1 KB per packet, 30 packets/s, 6 KB/s; each breach an event")
  func limits() throws {
    let big = [StrokeMessage(t: 0, text: String(repeating: "y", count: 1025), line: 1)]
    let (bigArrivals, bigNotices) = drain(
      DataStreamSource(messages: big, configuration: .init()), until: 1)
    #expect(bigArrivals.isEmpty)
    #expect(bigNotices.map(\.name) == ["stream-limit"])
    #expect(
      bigNotices.first.map { JSONValue.object($0.fields).text.contains("1025 bytes") } == true)

    // 31 packets within one second: the 31st is refused.
    let (rateArrivals, rateNotices) = drain(
      DataStreamSource(messages: messages(31, every: 0.02), configuration: .init()), until: 2)
    #expect(rateArrivals.count == 30)
    #expect(rateNotices.count == 1)
    #expect(
      rateNotices.first.map { JSONValue.object($0.fields).text.contains("30 messages") } == true)

    // Seven 1000-byte packets in a second: 7000 > 6144 bytes, the 7th is refused.
    let (byteArrivals, byteNotices) = drain(
      DataStreamSource(messages: messages(7, every: 0.1, bytes: 1000), configuration: .init()),
      until: 2)
    #expect(byteArrivals.count == 6)
    #expect(byteNotices.map(\.microseconds) == [600_000])
    #expect(
      byteNotices.first.map { JSONValue.object($0.fields).text.contains("6144 bytes") } == true)
  }

  @Test(
    "through a scene: a lost touch-start holds the points back (ordered), they arrive in a burst")
  func scene() throws {
    let fixture = try ReplayFixture()
    defer { fixture.remove() }
    try fixture.writeTrack("track.json", [(0, .identity), (10, .identity)])
    try fixture.write(
      "strokes.jsonl",
      """
      {"t":0.1,"data":"touch-start"}
      {"t":0.2,"data":"[(1.0, 2.0), (3.0, 4.0), (5.0, 6.0)]"}
      {"t":0.3,"data":"[(7.0, 8.0), (9.0, 10.0), (11.0, 12.0)]"}

      """)
    // The first seed (of 64) under which touch-start needs a retransmission at 50 % loss.
    let log = try StrokeLog.read(path: fixture.directory + "/strokes.jsonl").messages
    var stream = DataStreamSource.Configuration()
    stream.latency = 0.08
    stream.loss = 0.5
    stream.retransmissionInterval = 0.25
    let seed = try #require(
      (0..<64).first { seed in
        stream.seed = UInt64(seed)
        let notices = DataStreamSource(messages: log, configuration: stream).notices(dueBy: .max)
        return notices.contains { n in
          n.name == "stream-retransmitted"
            && n.fields.contains { $0.0 == "line" && $0.1 == .integer(1) }
        }
      })
    try fixture.write(
      "scene.json",
      """
      {"name": "stream", "track": {"path": "track.json"}, "output": {"width": 32, "height": 24, "fps": 60},
       "duration": 2.0,
       "remoteAssist": {"strokes": "strokes.jsonl", "mode": "corrected", "pointsPerFrame": 10,
         "network": {"latency": 0.08, "loss": 0.5, "retransmissionInterval": 0.25, "seed": \(seed)}}}
      """)
    let scene = try ReplayScene.load(path: fixture.directory + "/scene.json", registry: .builtIn)
    _ = try Replay(scene: scene).run(ReplayOptions(outputDirectory: fixture.directory + "/out"))
    let events = try fixture.jsonLines("events.jsonl")
    let names = events.compactMap { $0["event"] as? String }
    #expect(names.contains("stream-retransmitted"))
    let start = try #require(events.first { $0["event"] as? String == "touch-start" })
    let startTime = try #require(start["t"] as? Double)
    #expect(startTime >= 0.1 + 0.08 + 0.25 - 1e-9)  // at least one retransmission
    // Ordered: nothing arrives before touch-start, so no point is dropped for want of a root.
    #expect(!names.contains("dropped-point"))
    let trace = try fixture.jsonLines("trace.jsonl")
    let spheres = trace.map {
      ($0["nodes"] as? [[String: Any]] ?? []).filter { $0["stroke"] != nil }.count
    }
    #expect(spheres.last == 6)
  }
}
