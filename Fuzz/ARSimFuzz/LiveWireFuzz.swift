import ARLive
import ARSupport

/// The live wire formats read as the receivers read them, from fuzzed bytes instead of a
/// socket (`Scripts/fuzz wire`, `Scripts/fuzz strokeport`).
enum LiveWireFuzz {
  /// `arsim receive`'s reading of a frame stream: 40 header bytes, `FrameHeader.parse`, the
  /// extra header bytes skipped, exactly `payloadLength` payload bytes, the frame decoded;
  /// each frame's sequence through the gap rule and written as `received.jsonl` writes it.
  /// The stream ends where the bytes do (a cut frame) or at the first protocol violation.
  static func frames(_ bytes: [UInt8]) {
    var offset = 0
    var previous: UInt64?
    var missing: UInt64 = 0
    /// The next `count` bytes, as `TCPConnection.receive(exactly:)` returns them, or nil.
    func receive(_ count: Int) -> [UInt8]? {
      guard count >= 0, count <= bytes.count - offset else { return nil }
      defer { offset += count }
      return Array(bytes[offset..<(offset + count)])
    }
    while let headerBytes = receive(FrameHeader.length) {
      guard let (header, headerLength) = try? FrameHeader.parse(headerBytes) else { return }
      guard receive(headerLength - FrameHeader.length) != nil,
        let payload = receive(header.payloadLength)
      else { return }
      let image = WireFrame.image(header: header, payload: payload)
      precondition(image.width == header.width && image.height == header.height)
      if let gap = FrameReceiver.gap(after: previous, at: header.sequence) {
        // The gaps are disjoint ranges above every earlier sequence: their sum cannot overflow.
        missing += gap.count
      }
      let line = JSONValue.object([("sequence", .unsigned(header.sequence))]).text
      precondition(line == "{\"sequence\":\(header.sequence)}")
      previous = max(previous ?? 0, header.sequence)
    }
  }

  /// The strokes port's framing: the bytes fed to `StrokeFraming.Decoder` in chunks whose
  /// sizes the first byte picks (as reads of a socket split them), every item checked against
  /// the limits.
  static func strokeMessages(_ bytes: [UInt8]) {
    guard let first = bytes.first else { return }
    let chunk = Int(first) + 1
    var decoder = StrokeFraming.Decoder()
    var offset = 1
    var delivered = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + chunk)
      for item in decoder.feed(Array(bytes[offset..<end])) {
        switch item {
        case .message(let message):
          precondition(message.count <= StrokeFraming.maximumMessageBytes)
          delivered += message.count + 4
        case .skipped(let length):
          precondition(length > StrokeFraming.maximumMessageBytes)
          precondition(length <= StrokeFraming.maximumSkippedBytes)
        case .garbage(let length):
          precondition(length > UInt32(StrokeFraming.maximumSkippedBytes))
          precondition(decoder.isBroken)
        }
      }
      offset = end
    }
    precondition(delivered <= bytes.count)
  }
}
