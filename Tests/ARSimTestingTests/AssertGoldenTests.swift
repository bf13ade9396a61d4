import ARRender
import Testing

@testable import ARSimTesting

@Suite("assertGolden")
struct AssertGoldenTests {
  @Test("passes against its committed reference in __Goldens__/AssertGoldenTests")
  func passesAgainstCommittedReference() {
    var image = Image(width: 6, height: 4, fill: (255, 255, 255, 255))
    for v in 0..<4 {
      for u in 0..<6 where (u + v) % 2 == 0 { image[u, v] = (0, 122, 255, 255) }
    }
    assertGolden(image, named: "checkerboard")
    assertGolden(image, named: "checkerboard", tolerance: .perceptual())
  }
}
