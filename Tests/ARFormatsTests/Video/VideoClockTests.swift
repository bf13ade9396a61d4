import ARFormats
import Testing

@Suite struct VideoClockTests {
  @Test("the frame at video time s is ⌊s · rate⌋, exactly at frame boundaries")
  func floorOfRate() throws {
    let rate = try #require(FrameRate(numerator: 25, denominator: 1))
    #expect(rate.frameIndex(atMicroseconds: 0) == 0)
    #expect(rate.frameIndex(atMicroseconds: 39_999) == 0)
    #expect(rate.frameIndex(atMicroseconds: 40_000) == 1)
    #expect(rate.frameIndex(atMicroseconds: 200_000) == 5)  // 0.2 s · 25 = 5, not 4.999…
    #expect(rate.frameIndex(atMicroseconds: -1) == nil)
    let ntsc = try #require(FrameRate(numerator: 30000, denominator: 1001))
    #expect(ntsc.frameIndex(atMicroseconds: 1_001_000) == 30)
    #expect(ntsc.frameIndex(atMicroseconds: 1_000_999) == 29)
    #expect(rate.frameIndex(atMicroseconds: .max) == Int64.max / 40_000)
  }

  @Test("hold keeps the last frame; loop wraps")
  func endBehaviour() throws {
    let rate = try #require(FrameRate(numerator: 25, denominator: 1))
    let hold = VideoClock(rate: rate, frameCount: 5, end: .hold)
    let loop = VideoClock(rate: rate, frameCount: 5, end: .loop)
    // τ = 0.3 s → raw frame 7.
    #expect(hold.frameIndex(atMicroseconds: 300_000) == 4)
    #expect(loop.frameIndex(atMicroseconds: 300_000) == 2)
    #expect(loop.frameIndex(atMicroseconds: 160_000) == 4)
    #expect(loop.frameIndex(atMicroseconds: 200_000) == 0)
    #expect(VideoClock(rate: rate, frameCount: 0).frameIndex(atMicroseconds: 0) == nil)
  }

  @Test("rates must have both terms in 1…2³²−1")
  func rateValidation() {
    #expect(FrameRate(numerator: 0, denominator: 1) == nil)
    #expect(FrameRate(numerator: 1, denominator: 0) == nil)
    #expect(FrameRate(numerator: 1 << 32, denominator: 1) == nil)
  }
}
