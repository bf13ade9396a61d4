import ARRender
import ARTestSupport
import Glibc
import Testing

@testable import ARSimTesting

@Suite("GoldenVerifier")
struct GoldenVerifierTests {

  static func image() -> Image {
    var image = Image(width: 4, height: 3, fill: (20, 40, 60, 255))
    image[1, 1] = (200, 10, 10, 255)
    return image
  }

  func verifier(_ root: String, _ mode: GoldenRecordMode) -> GoldenVerifier {
    GoldenVerifier(
      goldenDirectory: root + "/__Goldens__/Suite", artifactsDirectory: root + "/artifacts",
      recordMode: mode)
  }

  @Test("a missing reference is recorded and the run fails on purpose; then it passes")
  func recordsMissing() throws {
    let root = TemporaryFolder("golden-test").path
    let message = try #require(
      verifier(root, .missing).verify(Self.image(), named: "frame", tolerance: .exact))
    let golden = root + "/__Goldens__/Suite/frame.png"
    #expect(message.contains("Recorded the golden image \(golden)"))
    #expect(try Image(contentsOfPNG: golden) == Self.image())
    #expect(verifier(root, .missing).verify(Self.image(), named: "frame", tolerance: .exact) == nil)
    #expect(verifier(root, .never).verify(Self.image(), named: "frame", tolerance: .exact) == nil)
  }

  @Test("with ARSIM_RECORD=never a missing reference fails and nothing is written")
  func neverRecords() throws {
    let root = TemporaryFolder("golden-test").path
    let message = try #require(
      verifier(root, .never).verify(Self.image(), named: "frame", tolerance: .exact))
    #expect(message.contains("No golden image at \(root)/__Goldens__/Suite/frame.png"))
    #expect(!FileIO.exists(root + "/__Goldens__/Suite/frame.png"))
  }

  @Test("a one-pixel change fails naming the file, the count and the artifact paths")
  func onePixelChange() throws {
    let root = TemporaryFolder("golden-test").path
    _ = verifier(root, .missing).verify(Self.image(), named: "frame", tolerance: .exact)
    var changed = Self.image()
    changed[3, 2] = (20, 40, 61, 255)
    let message = try #require(
      verifier(root, .never).verify(changed, named: "frame", tolerance: .exact))
    #expect(message.contains("\(root)/__Goldens__/Suite/frame.png"))
    #expect(message.contains("1 of 12 pixels differ (8.3333%)"))
    #expect(message.contains("bounding box (3, 2)–(3, 2), 1×1 px"))
    #expect(message.contains("max channel delta 1"))
    #expect(message.contains("actual: \(root)/artifacts/frame.actual.png"))
    #expect(message.contains("diff:   \(root)/artifacts/frame.diff.png"))
    #expect(try Image(contentsOfPNG: root + "/artifacts/frame.actual.png") == changed)
    let diff = try Image(contentsOfPNG: root + "/artifacts/frame.diff.png")
    #expect(diff[3, 2] == (255, 0, 0, 255))
    // The reference is untouched.
    #expect(try Image(contentsOfPNG: root + "/__Goldens__/Suite/frame.png") == Self.image())
  }

  @Test("a perceptual tolerance accepts a change below the threshold")
  func perceptualTolerance() throws {
    let root = TemporaryFolder("golden-test").path
    _ = verifier(root, .missing).verify(Self.image(), named: "frame", tolerance: .exact)
    var changed = Self.image()
    changed[3, 2] = (20, 40, 61, 255)
    #expect(verifier(root, .never).verify(changed, named: "frame", tolerance: .perceptual()) == nil)
    changed[0, 0] = (255, 255, 255, 255)
    #expect(
      verifier(root, .never).verify(
        changed, named: "frame", tolerance: .perceptual(maxDifferingPixels: 1)) == nil)
    #expect(
      verifier(root, .never).verify(changed, named: "frame", tolerance: .perceptual()) != nil)
  }

  @Test("ARSIM_RECORD=failed rewrites a mismatching reference and fails")
  func failedRerecords() throws {
    let root = TemporaryFolder("golden-test").path
    _ = verifier(root, .missing).verify(Self.image(), named: "frame", tolerance: .exact)
    let other = Image(width: 4, height: 3)
    let message = try #require(
      verifier(root, .failed).verify(other, named: "frame", tolerance: .exact))
    #expect(message.contains("Golden image mismatch"))
    #expect(message.contains("Recorded the golden image"))
    #expect(try Image(contentsOfPNG: root + "/__Goldens__/Suite/frame.png") == other)
  }

  @Test("ARSIM_RECORD=all rewrites even a matching reference and fails")
  func allRerecords() throws {
    let root = TemporaryFolder("golden-test").path
    _ = verifier(root, .missing).verify(Self.image(), named: "frame", tolerance: .exact)
    let message = verifier(root, .all).verify(Self.image(), named: "frame", tolerance: .exact)
    #expect(message?.contains("ARSIM_RECORD=all") == true)
  }

  @Test("a size change is reported as such")
  func sizeMismatch() throws {
    let root = TemporaryFolder("golden-test").path
    _ = verifier(root, .missing).verify(Self.image(), named: "frame", tolerance: .exact)
    let message = try #require(
      verifier(root, .never).verify(Image(width: 3, height: 4), named: "frame", tolerance: .exact))
    #expect(message.contains("size differs, expected 4×3, actual 3×4"))
    #expect(message.contains("actual: \(root)/artifacts/frame.actual.png"))
  }

  @Test("references go under __Goldens__/<test file name> beside the test file")
  func defaultLocation() throws {
    let verifier = try #require(
      GoldenVerifier(testFile: "/work/Tests/AppTests/StrokeTests.swift", suite: nil))
    #expect(verifier.goldenDirectory == "/work/Tests/AppTests/__Goldens__/StrokeTests")
    #expect(verifier.artifactsDirectory.hasSuffix("/StrokeTests"))
    let named = try #require(GoldenVerifier(testFile: "/work/Tests/T.swift", suite: "Render"))
    #expect(named.goldenDirectory == "/work/Tests/__Goldens__/Render")
  }
}
