import ARLive
import Testing

@Suite struct StrokeFramingTests {
  @Test("a message is its 4-byte big-endian length and its bytes")
  func frame() {
    #expect(StrokeFraming.frame(Array("undo".utf8)) == [0, 0, 0, 4] + Array("undo".utf8))
    #expect(StrokeFraming.frame([]) == [0, 0, 0, 0])
  }

  @Test("messages come out whole however the bytes are split")
  func splits() {
    let messages = ["touch-start", "", "[(-12.5, 40.0), (3.0, -7.25)]", "touch-end"]
    let stream = messages.flatMap { StrokeFraming.frame(Array($0.utf8)) }
    for chunk in [1, 2, 3, 5, 7, stream.count] {
      var decoder = StrokeFraming.Decoder()
      var items: [StrokeFraming.Item] = []
      var i = 0
      while i < stream.count {
        items += decoder.feed(Array(stream[i..<min(stream.count, i + chunk)]))
        i += chunk
      }
      #expect(items == messages.map { .message(Array($0.utf8)) }, "chunk \(chunk)")
      #expect(decoder.isAtBoundary)
    }
  }

  @Test("an oversize message is skipped and the next one still arrives")
  func oversize() {
    let big = [UInt8](repeating: 0x41, count: 5000)
    var decoder = StrokeFraming.Decoder()
    let items =
      decoder.feed(StrokeFraming.frame(big).prefix(3000).map { $0 })
      + decoder.feed(Array(StrokeFraming.frame(big).dropFirst(3000)) + StrokeFraming.frame([0x75]))
    #expect(items == [.skipped(length: 5000), .message([0x75])])
  }

  @Test("a length over 1 MiB is garbage and ends decoding")
  func garbage() {
    var decoder = StrokeFraming.Decoder()
    #expect(decoder.feed(Array("GET / HTTP/1.1\r\n".utf8)) == [.garbage(length: 0x4745_5420)])
    #expect(decoder.isBroken)
    #expect(decoder.feed(StrokeFraming.frame([1])) == [])
  }
}
