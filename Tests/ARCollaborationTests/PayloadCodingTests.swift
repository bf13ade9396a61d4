import Testing

@testable import ARCollaboration

@Suite("Payload coding")
struct PayloadCodingTests {
  func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  @Test("ModelData: the app's field names, Float arrays, isFree, keys sorted")
  func modelData() throws {
    let model = ModelData(
      id: "A", usdz: "forest_tree1",
      transform: EntityTransform(translation: SIMD3(0.1, 0, -0.2)), owner: "U")
    #expect(
      text(try RTMPayloadCoding.encode(model))
        == #"{"id":"A","isFree":true,"owner":"U","rotation":[0,0,0,1],"scale":[1,1,1],"translation":[0.1,0,-0.2],"usdz":"forest_tree1"}"#
    )
  }

  @Test("PeerData: nil rtcID and usdz are left out; colorVector as Doubles")
  func peerData() throws {
    let peer = PeerData(
      rtmID: "U", transform: EntityTransform(translation: SIMD3(0, 0.3, 0.7)),
      colorVector: [0.5, 0.2, 0.9, 0.4])
    #expect(
      text(try RTMPayloadCoding.encode(peer))
        == #"{"colorVector":[0.5,0.2,0.9,0.4],"rotation":[0,0,0,1],"rtmID":"U","scale":[1,1,1],"translation":[0,0.3,0.7]}"#
    )
    var withAudio = peer
    withAudio.rtcID = 42
    #expect(text(try RTMPayloadCoding.encode(withAudio)).contains(#""rtcID":42,"#))
  }

  @Test("ChannelData: optional systemImage kept, nil channelType left out, slashes escaped")
  func channelData() throws {
    let channel = ChannelData(
      channelName: "testName", channelID: "a/b", position: SIMD3(0, 0.51, 0), systemImage: "leaf")
    #expect(
      text(try RTMPayloadCoding.encode(channel))
        == #"{"channelID":"a\/b","channelName":"testName","position":[0,0.51,0],"systemImage":"leaf"}"#
    )
  }

  @Test(
    "multiCollabModels: an array of ModelData; Float text is Float's shortest (0.1 not 0.100000001)"
  )
  func modelArray() throws {
    let models = [
      ModelData(id: "m1", usdz: "a", transform: .identity, owner: "U"),
      ModelData(
        id: "m2", usdz: "b",
        transform: EntityTransform(
          scale: SIMD3(2, 2, 2), rotation: SIMD4(0, 0.70710677, 0, 0.70710677),
          translation: SIMD3(1e-7, 0, 0)), owner: "V"),
    ]
    #expect(
      text(try RTMPayloadCoding.encode(models))
        == #"[{"id":"m1","isFree":true,"owner":"U","rotation":[0,0,0,1],"scale":[1,1,1],"translation":[0,0,0],"usdz":"a"},{"id":"m2","isFree":true,"owner":"V","rotation":[0,0.70710677,0,0.70710677],"scale":[2,2,2],"translation":[1e-07,0,0],"usdz":"b"}]"#
    )
  }

  @Test("round trip: what is encoded decodes to the same value")
  func roundTrip() throws {
    let model = ModelData(
      id: "x", usdz: "desert_cactus",
      transform: EntityTransform(
        scale: SIMD3(1, 2, 3), rotation: SIMD4(0.1, 0.2, 0.3, 0.9273618),
        translation: SIMD3(-0.25, 0.125, 3.5)), owner: "B")
    let decoded = try RTMPayloadCoding.decode(
      ModelData.self, from: try RTMPayloadCoding.encode(model))
    #expect(decoded == model)
  }

  @Test("a ModelData without isFree fails with keyNotFound, as the app's decoder")
  func missingIsFree() {
    let bytes = Array(
      #"{"id":"A","owner":"U","rotation":[0,0,0,1],"scale":[1,1,1],"translation":[0,0,0],"usdz":"t"}"#
        .utf8)
    #expect(throws: RTMPayloadError(field: "isFree", reason: "missing (required)")) {
      try RTMPayloadCoding.decode(ModelData.self, from: bytes)
    }
  }

  static let hostile: [String] = [
    "", "null", "{", "[{}]", "42", "\"text\"", #"{"id":1}"#,
    #"{"rtmID":"U","scale":[1,1,1],"rotation":[0,0,1],"translation":[0,0,0],"colorVector":[1,1,1,1]}"#,
    #"{"rtmID":"U","scale":[1,1,1],"rotation":[0,0,0,1,5],"translation":[0,0,0],"colorVector":[]}"#,
    #"{"rtmID":"U","scale":[1,1,1],"rotation":[0,0,0,1],"translation":[1e999,0,0],"colorVector":[1,1,1,1]}"#,
    #"{"rtmID":"U","scale":[1,1,1],"rotation":[0,0,0,"1"],"translation":[0,0,0],"colorVector":[1,1,1,1]}"#,
    #"{"rtmID":"U","rtcID":-1,"scale":[1,1,1],"rotation":[0,0,0,1],"translation":[0,0,0],"colorVector":[1,1,1,1]}"#,
    String(repeating: "[", count: 100_000),
    String(repeating: #"{"a":"#, count: 10_000),
    "\u{FEFF}{}",
  ]

  @Test("hostile payloads throw a described error, never crash", arguments: hostile.indices)
  func hostilePayloads(index: Int) {
    let payload = Self.hostile[index]
    for decode in [
      { try RTMPayloadCoding.decode(PeerData.self, from: $0) as Any },
      { try RTMPayloadCoding.decode(ModelData.self, from: $0) as Any },
      { try RTMPayloadCoding.decode([ModelData].self, from: $0) as Any },
      { try RTMPayloadCoding.decode(ChannelData.self, from: $0) as Any },
    ] as [([UInt8]) throws -> Any] {
      do {
        _ = try decode(Array(payload.utf8))
        Issue.record("decoded: \(payload.prefix(40))")
      } catch let error as RTMPayloadError {
        #expect(!error.description.isEmpty)
      } catch {
        Issue.record("unexpected error type \(error)")
      }
    }
  }

  @Test("invalid UTF-8 and a non-finite Float are reported, not crashes")
  func invalidBytesAndNonFinite() {
    #expect(throws: RTMPayloadError.self) {
      try RTMPayloadCoding.decode(PeerData.self, from: [0x7B, 0xFF, 0xFE, 0x7D])
    }
    let model = ModelData(
      id: "A", usdz: "t", transform: EntityTransform(translation: SIMD3(.nan, 0, 0)), owner: "U")
    #expect(throws: (any Error).self) { try RTMPayloadCoding.encode(model) }
  }
}
