import Testing

@testable import ARCollaboration

@Suite("RTMMessageLog")
struct RTMMessageLogTests {
  @Test("good lines become entries in arrival order; bad lines become warnings naming the line")
  func parse() throws {
    let text = """
      {"t": 0.6, "from": "B", "channel": "room", "type": "peerUpdate", "payload": "{}"}
      {"t": 0.3, "from": "A", "peer": "C", "type": "multiCollabModels", "payload": "[]"}
      not json
      {"t": 0.4, "from": "A", "type": "peerUpdate", "payload": "{}"}
      {"t": 0.5, "from": "A", "channel": "r", "peer": "C", "type": "peerUpdate", "payload": "{}"}
      {"t": -1, "from": "A", "channel": "r", "type": "peerUpdate", "payload": "{}"}

      {"from": "A", "channel": "r", "type": "peerUpdate", "payload": "{}"}
      {"t": 0.3, "from": "A", "channel": "r", "type": "whatever", "payload": {"a": 1}}
      {"t": 0.3, "from": "D", "channel": "r", "type": "someNewType", "payload": "x", "extra": 1}
      """
    let log = RTMMessageLog.parse(Array(text.utf8), file: "log.jsonl")
    #expect(log.entries.map(\.line) == [2, 10, 1])
    #expect(log.entries[0].peer == "C" && log.entries[0].channel == nil)
    #expect(log.entries[1].type == "someNewType")
    #expect(String(decoding: log.entries[2].payload, as: UTF8.self) == "{}")
    let lines = log.warnings.map { $0.split(separator: ":").prefix(2).joined(separator: ":") }
    #expect(
      lines == [
        "log.jsonl:3", "log.jsonl:4", "log.jsonl:5", "log.jsonl:6", "log.jsonl:8", "log.jsonl:9",
        "log.jsonl:10",
      ])
    #expect(log.warnings[1].contains("exactly one of 'channel' and 'peer'"))
    #expect(log.warnings[4].contains("t: missing"))
    #expect(log.warnings[5].contains("payload: expected a string"))
    #expect(log.warnings[6].contains("unknown field 'extra'"))
  }

  @Test("arbitrary bytes never crash the reader")
  func garbage() {
    var state: UInt64 = 99
    for length in [0, 1, 7, 100, 5_000] {
      var bytes: [UInt8] = []
      for _ in 0..<length {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        bytes.append(UInt8(truncatingIfNeeded: state >> 56))
      }
      let log = RTMMessageLog.parse(bytes, file: "g")
      #expect(log.entries.count <= 1 + length / 10)
    }
  }
}
