import ARSupport
import Testing

@testable import ARSession

@Suite("NetworkRecord JSON")
struct NetworkRecordJSONTests {
  @Test("a messages.jsonl line: send τ, destination, type, bytes, payload, arrivals and drops")
  func line() {
    let link = NetworkLink(latencySeconds: 0.05)
    var network = SimulatedNetwork(
      configuration: .init(defaultLink: link, links: ["A": ["C": NetworkLink(loss: 1)]]))
    let record = network.send(
      NetworkMessage(
        sender: "A", destination: .channel("room"), type: "peerUpdate",
        payload: Array(#"{"x":1}"#.utf8), sizeBytes: 17, sendMicroseconds: 300_000),
      to: ["B", "C"])
    #expect(
      record.json.text
        == #"{"sequence":0,"t":0.3,"from":"A","channel":"room","type":"peerUpdate","bytes":17,"payload":"{\"x\":1}","deliveries":[{"to":"B","t":0.35,"attempts":1},{"to":"C","dropped":"lost","attempts":1}]}"#
    )
  }

  @Test("a failed send and a presence notice")
  func failedAndPresence() {
    var network = SimulatedNetwork(configuration: .init(limits: .agoraRTM))
    let big = network.send(
      NetworkMessage(
        sender: "A", destination: .peer("B"), type: "multiCollabModels",
        payload: Array(repeating: 0x20, count: 40_000), sendMicroseconds: 0),
      to: ["B"])
    let text = big.json.text
    #expect(
      text.hasPrefix(
        #"{"sequence":0,"t":0.0,"from":"A","peer":"B","type":"multiCollabModels","bytes":40000,"#))
    #expect(
      text.hasSuffix(#","failed":"message is 40000 bytes, the limit is 32768","deliveries":[]}"#))
    let notice = network.send(
      NetworkMessage(
        sender: "A", destination: .channel("room"), type: "memberLeft", payload: Array("A".utf8),
        sendMicroseconds: 1, isPresenceNotice: true),
      to: ["B"])
    #expect(
      notice.json.text.contains(
        #""payload":"A","presence":true,"deliveries":[{"to":"B","t":1e-06,"attempts":1}]"#))
  }
}
