import ARMath
import ARScene
import Testing

/// A portrait 360 × 640 video (the remote-assist broadcaster's) on the helper's iPhone screen,
/// 390 × 844 points, held in portrait and in landscape (844 × 390). Expected values by hand:
/// u = x/s + 179.5, v = y/s + 319.5 with s the points per pixel.
@Suite struct VideoViewTests {
  private func expectPixel(
    _ location: VideoView.Location, _ u: Double, _ v: Double,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard case .pixel(let gu, let gv) = location else {
      Issue.record("expected a pixel, got \(location)", sourceLocation: sourceLocation)
      return
    }
    #expect(abs(gu - u) < 1e-9, "u \(gu) ≠ \(u)", sourceLocation: sourceLocation)
    #expect(abs(gv - v) < 1e-9, "v \(gv) ≠ \(v)", sourceLocation: sourceLocation)
  }

  @Test("aspect fill, portrait helper: s = 844/640 (height fills, sides cropped)")
  func fillPortrait() {
    let view = VideoView(width: 390, height: 844, videoWidth: 360, videoHeight: 640)
    #expect(view.pointsPerPixel == 844.0 / 640)
    expectPixel(view.locate(Vector2(0, 0)), 179.5, 319.5)
    // 100·640/844 = 75.82938…, 200·640/844 = 151.65876…
    expectPixel(view.locate(Vector2(100, -200)), 255.329383886256, 167.841232227488)
    // The screen's right edge (x = 195) shows u = 195·640/844 + 179.5 = 327.37, inside 360 px:
    // the video's outer 32 columns on each side are cropped.
    expectPixel(view.locate(Vector2(195, 422)), 327.367298578199, 639.5)
  }

  @Test("aspect fit, portrait helper: s = 390/360 = 13/12, bars of 75.33 points top and bottom")
  func fitPortrait() {
    let view = VideoView(
      width: 390, height: 844, videoWidth: 360, videoHeight: 640, contentMode: .aspectFit)
    #expect(view.pointsPerPixel == 390.0 / 360)
    // 100·12/13 = 92.3077, −200·12/13 = −184.6154
    expectPixel(view.locate(Vector2(100, -200)), 271.807692307692, 134.884615384615)
    // The video spans |y| ≤ 640·13/24 = 346.67 points: 346 is on it (v = 0.1154), 400 is a bar.
    expectPixel(view.locate(Vector2(0, -346)), 179.5, 0.115384615385)
    #expect(view.locate(Vector2(0, -400)) == .letterbox)
    #expect(view.locate(Vector2(0, 400)) == .letterbox)
    #expect(view.locate(Vector2(0, 500)) == .outside)
  }

  @Test("aspect fill, landscape helper: s = 844/360 (width fills, only 166 of 640 rows visible)")
  func fillLandscape() {
    let view = VideoView(width: 844, height: 390, videoWidth: 360, videoHeight: 640)
    #expect(view.pointsPerPixel == 844.0 / 360)
    // 100·90/211 = 42.6540, 195·90/211 = 83.1754
    expectPixel(view.locate(Vector2(100, 195)), 222.154028436019, 402.675355450237)
    expectPixel(view.locate(Vector2(-422, -195)), -0.5, 236.324644549763)
  }

  @Test("aspect fit, landscape helper: s = 390/640 = 39/64, pillar bars beyond |x| = 109.69")
  func fitLandscape() {
    let view = VideoView(
      width: 844, height: 390, videoWidth: 360, videoHeight: 640, contentMode: .aspectFit)
    #expect(view.pointsPerPixel == 390.0 / 640)
    // 100·64/39 = 164.1026
    expectPixel(view.locate(Vector2(100, 100)), 343.602564102564, 483.602564102564)
    expectPixel(view.locate(Vector2(109.6875, -195)), 359.5, -0.5)
    #expect(view.locate(Vector2(110, 0)) == .letterbox)
    #expect(view.locate(Vector2(-300, 100)) == .letterbox)
    #expect(view.locate(Vector2(423, 0)) == .outside)
  }

  @Test("point(u:v:) inverts locate on the video, both modes and orientations")
  func inverse() {
    for (w, h) in [(390.0, 844.0), (844.0, 390.0)] {
      for mode in VideoView.ContentMode.allCases {
        let view = VideoView(
          width: w, height: h, videoWidth: 360, videoHeight: 640, contentMode: mode)
        for (u, v) in [(0.0, 0.0), (12.25, 600.5), (359.5, 319.5)] {
          let p = view.point(u: u, v: v)
          expectPixel(view.locate(p), u, v)
        }
      }
    }
  }

  @Test("degenerate sizes and non-finite points map outside, never trap")
  func degenerate() {
    #expect(
      VideoView(width: 0, height: 844, videoWidth: 360, videoHeight: 640).locate(.init(0, 0))
        == .outside)
    #expect(
      VideoView(width: 390, height: 844, videoWidth: 0, videoHeight: 640).locate(.init(0, 0))
        == .outside)
    let view = VideoView(width: 390, height: 844, videoWidth: 360, videoHeight: 640)
    #expect(view.locate(Vector2(.nan, 0)) == .outside)
    #expect(view.locate(Vector2(.infinity, 0)) == .outside)
  }
}
