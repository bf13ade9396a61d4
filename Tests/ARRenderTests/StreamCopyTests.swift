import CLaneMath
import Testing

/// `arsim_stream_copy`, which writes each rendered row into the frame past the caches: every
/// byte of the source lands in place, none around it changes, for aligned and unaligned
/// destinations and lengths around the 16- and 64-byte steps and the tail.
@Suite struct StreamCopyTests {
  @Test func copiesEveryByteAndNothingElse() {
    let lengths = [0, 1, 15, 16, 17, 48, 63, 64, 65, 127, 7680, 7683]
    let source = (0..<8000).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
    for offset in 0..<32 {
      for length in lengths {
        // 64-byte aligned room, so `offset` is the destination's misalignment.
        let room = UnsafeMutableRawBufferPointer.allocate(byteCount: 8192, alignment: 64)
        defer { room.deallocate() }
        room.initializeMemory(as: UInt8.self, repeating: 0xA5)
        source.withUnsafeBytes { bytes in
          arsim_stream_copy(room.baseAddress! + offset, bytes.baseAddress!, length)
        }
        arsim_stream_fence()
        let copied = Array(room[offset..<(offset + length)])
        #expect(copied == Array(source[0..<length]), "offset \(offset), length \(length)")
        let before = room[0..<offset].allSatisfy { $0 == 0xA5 }
        let after = room[(offset + length)...].allSatisfy { $0 == 0xA5 }
        #expect(before && after, "offset \(offset), length \(length): bytes around changed")
      }
    }
  }
}
