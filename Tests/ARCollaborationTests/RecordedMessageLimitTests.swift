import ARMath
import ARSession
import Foundation
import Testing

@testable import ARCollaboration

/// Agora RTM fails a send over 32 KB (payload and description together), so a recorded log
/// line bigger than that holds a message no device could have received; and a send that fails
/// is never reported as sent (issue 27, item 10).
@Suite("RTM size limit on recorded messages and sends")
struct RecordedMessageLimitTests {
  /// A model as the app encodes it.
  static func model(_ id: String, owner: String = "X") -> ModelData {
    ModelData(
      id: id, usdz: "x", transform: EntityTransform(translation: SIMD3(0.1, 0, 0.2)), owner: owner)
  }

  /// One log line: `type` from `from` on the room channel at `t`.
  static func line(t: Double, from: String, type: String, payload: [UInt8]) throws -> String {
    let object: [String: Any] = [
      "t": t, "from": from, "channel": "room", "type": type,
      "payload": String(decoding: payload, as: UTF8.self),
    ]
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    return String(decoding: data, as: UTF8.self)
  }

  static func log(_ lines: [String]) -> RTMMessageLog {
    RTMMessageLog.parse(Array(lines.joined(separator: "\n").utf8), file: "log.jsonl")
  }

  @Test("a recorded multiCollabModels line over 32 KB is dropped with a warning naming its line")
  func oversizedRecordedMessage() throws {
    let big = try RTMPayloadCoding.encode((0..<1000).map { Self.model("m\($0)") })
    #expect(big.count > 100_000)
    let small = try RTMPayloadCoding.encode(Self.model("kept"))
    let log = Self.log([
      try Self.line(t: 0.5, from: "X", type: "singleCollabModel", payload: small),
      try Self.line(t: 0.6, from: "X", type: "multiCollabModels", payload: big),
    ])
    let scene = CollaborationScene(
      participants: [
        Participant(id: "A", anchor: .transform(.identity), messageLog: log),
        Participant(id: "B", anchor: .transform(.identity)),
      ])
    let simulation = CollaborationSimulationTests.run(
      scene, seconds: 1, cameras: [.identity, .identity])
    #expect(simulation.states[0].models.map(\.id) == ["kept"])
    let events = simulation.takeEvents(0)
    #expect(!events.contains { $0.name == "received-models" })
    let warnings = events.filter { $0.name == "warning" }
    #expect(warnings.count == 1)
    let warning = try #require(warnings.first)
    #expect(warning.fields.first { $0.0 == "line" }?.1 == .integer(2))
    let expected =
      "recorded multiCollabModels message is \(big.count + "multiCollabModels".utf8.count) "
      + "bytes, over the SDK's 32768-byte limit, so it could not have been sent; dropped"
    #expect(warning.fields.first { $0.0 == "message" }?.1 == .string(expected))
    // Sized as the SDK counts it; with `limits: none` the line is replayed as recorded.
    var unlimited = scene
    unlimited.network.limits = .none
    let replayed = CollaborationSimulationTests.run(
      unlimited, seconds: 1, cameras: [.identity, .identity])
    #expect(replayed.states[0].models.count == 1001)
  }

  @Test("a model list over 32 KB for a late joiner: no sent-models, as messages.jsonl says failed")
  func failedSendIsNotSent() throws {
    // 400 models reach A one line each (every line well under 32 KB); B joins at 1 s and A, the
    // most senior member, sends it all of them at once: over 32 KB, so the send fails.
    let lines = try (0..<400).map { k in
      try Self.line(
        t: 0.1 + Double(k) / 1000, from: "X", type: "singleCollabModel",
        payload: RTMPayloadCoding.encode(Self.model("model-\(k)")))
    }
    let scene = CollaborationScene(
      participants: [
        Participant(id: "A", anchor: .transform(.identity), messageLog: Self.log(lines)),
        Participant(id: "B", anchor: .transform(.identity), joinSeconds: 1),
      ])
    let simulation = CollaborationSimulationTests.run(
      scene, seconds: 1.5, cameras: [.identity, .identity])
    #expect(simulation.states[0].models.count == 400)
    let lists = simulation.network.records.filter { $0.message.type == "multiCollabModels" }
    let list = try #require(lists.first)
    #expect(lists.count == 1)
    #expect(list.message.sizeBytes > 32_768)
    #expect(list.failure != nil)
    let events = simulation.takeEvents(0)
    #expect(!events.contains { $0.name == "sent-models" })
    let warning = try #require(
      events.first {
        $0.name == "warning" && $0.fields.contains { $0.1 == .integer(list.sequence) }
      })
    #expect(
      warning.fields.first { $0.0 == "message" }?.1
        == .string(
          "send of multiCollabModels failed: message is \(list.message.sizeBytes) bytes, the limit is 32768"
        ))
    #expect(simulation.states[1].models.isEmpty)
  }

  @Test("every sent-models event has a delivered multiCollabModels record, and the other way round")
  func eventsAgreeWithRecords() throws {
    // Three members join one after another; each newcomer gets A's two models.
    let scene = CollaborationScene(
      participants: [
        Participant(id: "A", anchor: .transform(.identity)),
        Participant(id: "B", anchor: .transform(.identity), joinSeconds: 0.5),
        Participant(id: "C", anchor: .transform(.identity), joinSeconds: 1),
      ],
      actions: ["m1", "m2"].map {
        ModelAction(
          seconds: 0.2, participant: "A", model: $0,
          kind: .add(usdz: "x", placement: .collabBase(.identity)))
      })
    let simulation = CollaborationSimulationTests.run(
      scene, seconds: 1.5, cameras: [.identity, .identity, .identity])
    let sent = simulation.takeEvents(0).filter { $0.name == "sent-models" }.compactMap {
      event -> String? in
      guard case .string(let to)? = event.fields.first(where: { $0.0 == "to" })?.1 else {
        return nil
      }
      return to
    }
    let records = simulation.network.records.filter {
      $0.message.type == "multiCollabModels" && $0.failure == nil
    }
    #expect(sent == ["B", "C"])
    #expect(records.map(\.message.destination) == [.peer("B"), .peer("C")])
  }
}
