import ARSupport
import Testing

@Suite("FrameFileName")
struct FrameFileNameTests {
  @Test("names are zero-padded to five digits and grow past 99 999")
  func names() {
    #expect(FrameFileName.name(0) == "frame_00000.png")
    #expect(FrameFileName.name(42) == "frame_00042.png")
    #expect(FrameFileName.name(99_999) == "frame_99999.png")
    #expect(FrameFileName.name(123_456) == "frame_123456.png")
    #expect(FrameFileName.name(7, kind: .depth) == "depth_00007.png")
    #expect(FrameFileName.name(UInt64.max) == "frame_18446744073709551615.png")
  }

  @Test("parse reads back exactly the names it writes")
  func parse() {
    for index in [0, 1, 42, 99_999, 100_000, 1_234_567] {
      for kind in FrameFileName.Kind.allCases {
        let parsed = FrameFileName.parse(FrameFileName.name(index, kind: kind))
        #expect(parsed?.index == index && parsed?.kind == kind)
      }
    }
    let others = [
      "frame_42.png", "frame_000042.png", "frame_+0042.png", "frame_-0001.png", "frame_0004a.png",
      "frame_00042.PNG", "helper_00042.png", "frame_00042.png.arsim-tmp", "frame_.png",
      "frame_99999999999999999999.png", "frame_٠٠٠٤٢.png",
    ]
    for name in others { #expect(FrameFileName.parse(name) == nil, "\(name)") }
  }
}
