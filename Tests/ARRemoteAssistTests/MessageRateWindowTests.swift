import ARFormats
import Testing

@testable import ARRemoteAssist

/// The rate check's window does amortised O(1) work per message (issue 22: a dense log of
/// 10⁶ lines within 2 s replayed in quadratic time). Work is counted, not timed.
@Suite("message rate window")
struct MessageRateWindowTests {
  @Test("200 000 deliveries 10 µs apart: counts as computed by hand, ≤ 3 operations each")
  func linearWork() {
    var window = MessageRateWindow()
    let n = 200_000
    for k in 0..<n {
      let count = window.record(Int64(k) * 10)
      // Times 10·j with 10·k − 10·j < 10⁶ µs: j = k − 99 999 … k.
      if k % 9_973 == 0 || k == n - 1 { #expect(count == min(k + 1, 100_000), "k = \(k)") }
    }
    // Each time appended once, dropped at most once, moved at most once by a compaction.
    #expect(window.elementOperations <= 3 * n, "\(window.elementOperations)")
    #expect(window.elementOperations >= 2 * n - 100_000)
  }

  @Test("times that share a tick stay together; a gap of a second empties the window")
  func ticks() {
    var window = MessageRateWindow()
    #expect(window.record(0) == 1)
    #expect(window.record(0) == 2)
    #expect(window.record(999_999) == 3)
    #expect(window.record(1_000_000) == 2)  // the two at 0 left: 1 000 000 − 0 ≥ 10⁶
    #expect(window.record(5_000_000) == 1)
  }

  @Test("a session replaying 20 000 messages within 2 s does linear work in its rate check")
  func session() {
    let messages = (0..<20_000).map { StrokeMessage(t: Double($0) * 1e-4, text: "touch-end") }
    var h = RemoteAssistHarness(messages, mode: .faithful)
    h.run(125)
    let operations = h.session.recentDeliveries.elementOperations
    #expect(operations <= 3 * 20_000, "\(operations)")
    #expect(h.events.filter { $0.name == "warning" }.count == 1)  // one rate warning
  }
}
