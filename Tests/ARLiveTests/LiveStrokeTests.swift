import ARLive
import ARFormats
import ARReplay
import ARSupport
import ARSimCLI
import ARTestSupport
import Foundation
import Testing

/// The live strokes port: framing on a real socket, bounded memory under floods, the arrival
/// stamps that make a recorded log replay the same, and `arsim strokes send`.
@Suite struct LiveStrokeTests {
  /// Takes from `inbox` until `count` messages and `kinds` notes came, ≤ 5 s, at tick times
  /// far ahead of the wall clock that grow by 1 s per take (each message is stamped just after
  /// the last take, so the next take delivers it).
  func collect(
    _ inbox: LiveStrokeInbox, messages count: Int, notes kinds: Set<String> = []
  ) -> ([StrokeMessage], [LiveStrokeInbox.Note]) {
    var messages: [StrokeMessage] = []
    var notes: [LiveStrokeInbox.Note] = []
    let deadline = Date(timeIntervalSinceNow: 5)
    var tick: Int64 = 1 << 40
    while Date() < deadline {
      tick += 1_000_000
      let (m, n) = inbox.take(through: tick)
      messages += m
      notes += n
      if messages.count >= count, kinds.isSubset(of: Set(notes.map(\.kind))) { break }
      usleep(5000)
    }
    return (messages, notes)
  }

  @Test("garbage from socat closes that connection; the next helper's messages still arrive")
  func garbageThenValid() throws {
    let folder = TemporaryFolder("live-strokes-garbage").path
    let inbox = LiveStrokeInbox(start: .now)
    let listener = try LiveStrokeListener(endpoint: LoopbackEndpoint(port: 0), inbox: inbox)
    defer { listener.close() }
    try Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) | 0x80 })
      .write(to: URL(fileURLWithPath: folder + "/garbage.bin"))
    let flood = try Child(
      socat, ["-u", "FILE:garbage.bin", "TCP:127.0.0.1:\(listener.endpoint.port)"],
      directory: folder)
    flood.wait(seconds: 5)
    let (_, garbageNotes) = collect(inbox, messages: 0, notes: ["garbage"])
    #expect(garbageNotes.contains { $0.kind == "garbage" })
    let helper = try TCPConnection.connect(to: listener.endpoint, timeout: .seconds(2))
    try helper.send(StrokeFraming.frame(Array("touch-start".utf8)), timeout: .seconds(2))
    try helper.send(
      StrokeFraming.frame([UInt8](repeating: 0x41, count: 6000)), timeout: .seconds(2))
    // Over 1 KB but within the framing's 4 KiB: delivered whole, for the session to refuse
    // as it refuses the same message in a file.
    try helper.send(
      StrokeFraming.frame([UInt8](repeating: 0x42, count: 2000)), timeout: .seconds(2))
    try helper.send(StrokeFraming.frame(Array("undo".utf8)), timeout: .seconds(2))
    let (messages, notes) = collect(inbox, messages: 3, notes: ["skipped"])
    #expect(messages.map(\.data.count) == [11, 2000, 4])
    #expect(messages.first?.text == "touch-start" && messages.last?.text == "undo")
    #expect(notes.contains { $0.kind == "skipped" && $0.detail.contains("6000-byte") })
  }

  @Test("a flood keeps at most 256 messages waiting; the rest are counted as overflow")
  func flood() throws {
    let inbox = LiveStrokeInbox(start: .now)
    let listener = try LiveStrokeListener(endpoint: LoopbackEndpoint(port: 0), inbox: inbox)
    defer { listener.close() }
    let helper = try TCPConnection.connect(to: listener.endpoint, timeout: .seconds(2))
    let one = StrokeFraming.frame(Array("[(1.0, 2.0), (3.0, 4.0), (5.0, 6.0)]".utf8))
    try helper.send(Array((0..<2000).map { _ in one }.joined()), timeout: .seconds(3))
    helper.shutdownSending()
    let deadline = Date(timeIntervalSinceNow: 5)
    var closed = false
    var notes: [LiveStrokeInbox.Note] = []
    // Nothing is taken until the connection ended: the inbox must hold the bound by itself.
    while !closed, Date() < deadline {
      usleep(10_000)
      let taken = inbox.take(through: -1)
      notes += taken.notes
      closed = notes.contains { $0.kind == "closed" }
    }
    let (messages, _) = inbox.take(through: 1 << 40)
    #expect(messages.count == LiveStrokeInbox.capacity)
    #expect(inbox.overflowed == 2000 - LiveStrokeInbox.capacity)
    #expect(notes.contains { $0.kind == "overflow" })
  }

  @Test(
    "arrival stamps are never at or before a delivered tick, so a recorded log replays the same")
  func stamps() {
    let inbox = LiveStrokeInbox(start: .now + .seconds(100))  // the wall clock is far behind τ
    _ = inbox.take(through: 50_000)
    inbox.receive(Array("touch-start".utf8))
    #expect(inbox.take(through: 50_000).messages.isEmpty)
    let due = inbox.take(through: 66_667).messages
    #expect(due.map(\.t) == [0.050001])
    #expect(inbox.strokeLog.jsonLines == "{\"t\":0.050001,\"data\":\"touch-start\"}\n")
  }

  @Test("messages after the last tick are counted as undelivered, not kept or delivered")
  func undeliveredAfterLastTick() {
    let inbox = LiveStrokeInbox(start: .now + .seconds(100))
    inbox.receive(Array("touch-start".utf8))
    #expect(inbox.take(through: 50_000).messages.count == 1)
    #expect(inbox.undelivered == 0)
    // Two arrive after the last tick (τ 0.05 s), one more after the run ends.
    inbox.receive(Array("touch-move".utf8))
    inbox.receive(Array("touch-end".utf8))
    #expect(inbox.finish() == 2)
    inbox.receive(Array("touch-start".utf8))
    #expect(inbox.finish() == 3)
    #expect(inbox.undelivered == 3)
    #expect(inbox.take(through: 1 << 40).messages.isEmpty)
    #expect(inbox.delivered.count == 1 && inbox.strokeLog.messages.count == 1)
  }

  @Test("arsim strokes send plays a log at its times into a listening port")
  func strokesSend() throws {
    let folder = TemporaryFolder("live-strokes-send").path
    try """
    {"t": 0.0, "data": "touch-start"}
    {"t": 0.2, "data": "[(-12.5, 40.0), (3.0, -7.25)]"}
    {"t": 0.3, "data": "touch-end"}

    """.write(toFile: folder + "/log.jsonl", atomically: true, encoding: .utf8)
    let inbox = LiveStrokeInbox(start: .now)
    let listener = try LiveStrokeListener(endpoint: LoopbackEndpoint(port: 0), inbox: inbox)
    defer { listener.close() }
    let captured = CapturedOutput()
    let start = ContinuousClock.now
    let code = run(
      arguments: [
        "strokes", "send", folder + "/log.jsonl", "--port", String(listener.endpoint.port),
      ], output: captured.output)
    let elapsed = ContinuousClock.now - start
    #expect(code == 0, "\(captured.standardError)")
    #expect(elapsed >= .milliseconds(290) && elapsed < .seconds(2))
    let (messages, _) = collect(inbox, messages: 3)
    try #require(messages.count == 3)
    #expect(messages.map(\.text) == ["touch-start", "[(-12.5, 40.0), (3.0, -7.25)]", "touch-end"])
  }

  @Test("strokes send to a closed port: refused, exit 69")
  func strokesSendRefused() throws {
    let folder = TemporaryFolder("live-strokes-refused").path
    try "{\"t\": 0, \"data\": \"undo\"}\n".write(
      toFile: folder + "/log.jsonl", atomically: true, encoding: .utf8)
    let captured = CapturedOutput()
    let code = run(
      arguments: ["strokes", "send", folder + "/log.jsonl", "--port", String(try freePort())],
      output: captured.output)
    #expect(code == 69)
    #expect(captured.standardError.contains("refused"))
  }
}
