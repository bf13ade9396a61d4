import ARRender
import Testing

@testable import ARSimTesting

@Suite("assertGolden")
struct AssertGoldenTests {
  static var checkerboard: Image {
    var image = Image(width: 6, height: 4, fill: (255, 255, 255, 255))
    for v in 0..<4 {
      for u in 0..<6 where (u + v) % 2 == 0 { image[u, v] = (0, 122, 255, 255) }
    }
    return image
  }

  /// Modes that never rewrite an existing reference.
  static var comparesOnly: Bool {
    [.missing, .never].contains(GoldenRecordMode.fromEnvironment())
  }

  @Test("passes against its committed reference in __Goldens__/AssertGoldenTests")
  func passesAgainstCommittedReference() {
    let image = Self.checkerboard
    assertGolden(image, named: "checkerboard")
    assertGolden(image, named: "checkerboard", tolerance: .perceptual())
  }

  @Test(
    "records an issue naming the golden when one pixel changes",
    .enabled(if: comparesOnly, "would rewrite the committed reference"))
  func recordsIssue() {
    var image = Self.checkerboard
    image[5, 3] = (0, 0, 0, 255)
    withKnownIssue {
      assertGolden(image, named: "checkerboard")
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("__Goldens__/AssertGoldenTests/checkerboard.png")
        && text.contains("1 of 24 pixels differ") && text.contains("checkerboard.diff.png")
    }
  }
}
