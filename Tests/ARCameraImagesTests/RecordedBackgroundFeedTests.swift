import ARCameraImages
import ARRenderCore
import ARScene
import ARSupport
import Foundation
import Testing

/// Images of one colour each (red level = 10 × index + 10), some failing, counted.
final class FakeSource: RecordedImageSource, @unchecked Sendable {
  let times: [Double]
  let failing: Set<Int>
  let sizes: [Int: (Int, Int)]
  private(set) var decoded: [Int] = []

  init(times: [Double], failing: Set<Int> = [], sizes: [Int: (Int, Int)] = [:]) {
    self.times = times
    self.failing = failing
    self.sizes = sizes
  }

  func name(of index: Int) -> String { "image\(index).png" }
  func line(of index: Int) -> Int? { index + 1 }
  func image(at index: Int) throws -> Image {
    decoded.append(index)
    if failing.contains(index) { throw CameraImageFailure(reason: "image\(index).png: corrupt") }
    let (w, h) = sizes[index] ?? (4, 2)
    return Image(width: w, height: h, fill: (UInt8(10 * index + 10), 0, 0, 255))
  }
  func finish() throws {}
}

@Suite struct RecordedBackgroundFeedTests {
  static let lens = CameraLens(
    intrinsics: CameraIntrinsics(fx: 4, fy: 4, cx: 1.5, cy: 0.5, width: 4, height: 2))

  func run(
    _ source: FakeSource, frames: ClosedRange<Int>, query: @escaping @Sendable (Int) -> Double
  )
    throws -> [RecordedFrame]
  {
    let feed = RecordedBackgroundFeed(
      source: source, lens: Self.lens, output: Self.lens.intrinsics, viewport: .landscape,
      fill: SIMD4(0, 0, 0, 255), frames: frames, queryTime: query)
    let result = try frames.map { _ in try feed.next() }
    try feed.finish()
    return result
  }

  func red(_ frame: RecordedFrame) -> Int? { frame.image.map { Int($0.pixels[0]) } }

  @Test("the latest image at or before the frame's time: boundaries exact, one event per gap")
  func timingRule() throws {
    // Images at 0.1, 0.2, 0.3 s; frames every 0.05 s from 0.
    let source = FakeSource(times: [0.1, 0.2, 0.3])
    let frames = try run(source, frames: 0...8) { Double($0) * 0.05 }
    // 0, 0.05: none yet; 0.1 (exactly image 0's time): image 0; 0.15: 0; 0.2: 1; … 0.4: 2.
    #expect(frames.map(red) == [nil, nil, 10, 10, 20, 20, 30, 30, 30])
    #expect(frames[0].notices.map(\.name) == ["camera-image-missing"])
    #expect(frames[1].notices.isEmpty)
    // Each image decoded once although two frames show it.
    #expect(source.decoded == [0, 1, 2])
  }

  @Test("just before an image's time the previous image shows; the offset shifts the pick")
  func justBefore() throws {
    let source = FakeSource(times: [0.0, 1.0])
    let frames = try run(source, frames: 0...2) { [0.0, 0.999_99, 1.0][$0] }
    #expect(frames.map(red) == [10, 10, 20])
    // offset +0.5 s: the frame at τ = 0.5 asks for 1.0, image 1.
    let shifted = try run(FakeSource(times: [0.0, 1.0]), frames: 0...1) { [0.0, 0.5][$0] + 0.5 }
    #expect(shifted.map(red) == [10, 20])
  }

  @Test("an unreadable image warns with its file and line; the previous image stays")
  func unreadable() throws {
    let source = FakeSource(times: [0, 1, 2], failing: [1])
    let frames = try run(source, frames: 0...2) { Double($0) }
    #expect(frames.map(red) == [10, 10, 30])
    let warning = try #require(frames[1].notices.first)
    #expect(warning.name == "warning")
    #expect(warning.fields.map(\.0) == ["reason", "file", "line"])
    #expect(warning.fields[0].1 == .string("image1.png: corrupt; the previous image is kept"))
    #expect(warning.fields[2].1 == .integer(2))
  }

  @Test("a first image that fails leaves a gap: one missing event until an image decodes")
  func firstFails() throws {
    let frames = try run(FakeSource(times: [0, 1], failing: [0]), frames: 0...2) { Double($0) }
    #expect(frames.map(red) == [nil, 20, 20])
    #expect(frames[0].notices.map(\.name) == ["warning", "camera-image-missing"])
  }

  @Test("an image of another size than the lens declares is resampled, with one warning")
  func otherSize() throws {
    let source = FakeSource(times: [0, 1, 2], sizes: [1: (8, 4), 2: (8, 4)])
    let frames = try run(source, frames: 0...2) { Double($0) }
    #expect(frames.map { $0.image?.width } == [4, 4, 4])
    #expect(frames.map(red) == [10, 20, 30])
    #expect(frames[1].notices.map(\.name) == ["warning"])
    #expect(frames[2].notices.isEmpty)
  }

  @Test("frames a range starts later than 0 pick by their own times")
  func range() throws {
    let frames = try run(FakeSource(times: [0, 1, 2]), frames: 2...3) { Double($0) }
    #expect(frames.map(\.frame) == [2, 3])
    #expect(frames.map(red) == [30, 30])
  }

  @Test("a range's first frame shows an image older than the range, with no event")
  func rangeStartsOnOlderImage() throws {
    // Frame 3 (t = 3) picks image 1 (t = 1): no image falls inside frames 3…4.
    let source = FakeSource(times: [0, 1, 5])
    let frames = try run(source, frames: 3...4) { Double($0) }
    #expect(frames.map(red) == [20, 20])
    #expect(frames.allSatisfy { $0.notices.isEmpty })
    #expect(source.decoded == [1])
  }

  @Test("a range whose first image is unreadable shows what a whole run shows: the one before")
  func rangeStartsOnUnreadableImage() throws {
    // A whole run warns at frame 2 (image 2 unreadable) and keeps image 1 from then on.
    let whole = try run(FakeSource(times: [0, 1, 2], failing: [2]), frames: 0...3) { Double($0) }
    #expect(whole.map(red) == [10, 20, 20, 20])
    #expect(whole.map { $0.notices.map(\.name) } == [[], [], ["warning"], []])
    let source = FakeSource(times: [0, 1, 2], failing: [2])
    let range = try run(source, frames: 3...3) { Double($0) }
    #expect(range.map(red) == [20])
    #expect(range[0].notices.isEmpty)
    #expect(source.decoded == [2, 1])
  }
}
