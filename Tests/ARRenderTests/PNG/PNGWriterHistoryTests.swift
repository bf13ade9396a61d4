import Foundation
import Testing

@testable import ARRender

/// The ISA-L path reuses its work buffers between encodes (a pool); what an earlier frame left
/// in them must not reach a later frame's bytes, or a frame's file would depend on which frames
/// were encoded before it (a `--frames` range against a full run, the order of encoder threads).
@Suite("PNG writer: no history between encodes")
struct PNGWriterHistoryTests {
  @Test("a frame's bytes are the same whatever was encoded before it")
  func independentOfEarlierFrames() throws {
    let frame = PNGWriterTests.frameLike(width: 320, height: 240, opaque: true)
    let first = try PNGEncoder.fast.encode(frame)
    // Other content through the same (single-threaded: the same pooled) buffers.
    for seed in 0..<6 {
      var other = PNGEncoderTests.pattern(width: 640, height: 480, opaque: true)
      for i in stride(from: seed, to: other.pixels.count, by: 7) { other.pixels[i] &+= 91 }
      _ = try PNGEncoder.fast.encode(other)
      #expect(try PNGEncoder.fast.encode(frame) == first, "after \(seed + 1) other frames")
    }
  }
}

extension PNGWriterHistoryTests {
  @Test("encodes that overlap on several threads give the bytes of one at a time")
  func overlappingEncodes() throws {
    let frames = (0..<8).map { seed in
      var image = PNGWriterTests.frameLike(width: 480, height: 360, opaque: true)
      for i in stride(from: seed, to: image.pixels.count, by: 11 + seed) { image.pixels[i] &+= 57 }
      return image
    }
    let serial = try frames.map { try PNGEncoder.fast.encode($0) }
    for round in 0..<6 {
      let results = Results(count: frames.count)
      // Eight threads at once, each encoding while the others do: more sets than the pool
      // keeps (four), so sets are freed and allocated again from memory earlier sets used.
      let group = DispatchGroup()
      for i in 0..<frames.count {
        group.enter()
        let thread = Thread {
          results.set(i, try? PNGEncoder.fast.encode(frames[(i + round) % frames.count]))
          group.leave()
        }
        thread.start()
      }
      #expect(group.wait(timeout: .now() + 60) == .success)
      for i in 0..<frames.count {
        #expect(results.get(i) == serial[(i + round) % frames.count], "round \(round), frame \(i)")
      }
    }
  }
}

/// Encoded files written from several threads.
private final class Results: @unchecked Sendable {
  private var values: [[UInt8]?]
  private let lock = NSLock()
  init(count: Int) { values = Array(repeating: nil, count: count) }
  func set(_ i: Int, _ value: [UInt8]?) { lock.withLock { values[i] = value } }
  func get(_ i: Int) -> [UInt8]? { lock.withLock { values[i] } }
}
