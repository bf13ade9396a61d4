// Only ARSimTesting is imported: `Image` must come with it (issue 22, item 13). Before the
// re-export this file did not compile.
import ARSimTesting
import Testing

@Suite("ARSimTesting re-exports the types its API takes")
struct ExportsTests {
  @Test("an Image built with only ARSimTesting imported verifies against itself")
  func imageFromARSimTesting() throws {
    var image = Image(width: 3, height: 2)
    image[1, 1] = (200, 10, 10, 255)
    let png = try image.pngData()
    let decoded = try Image(pngData: png, file: "memory")
    #expect(decoded[1, 1] == image[1, 1])
    #expect(GoldenTolerance.exact == .exact)
  }
}
