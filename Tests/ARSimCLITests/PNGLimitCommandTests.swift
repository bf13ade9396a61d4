import ARTestSupport
import Foundation
import Testing

/// `compare` and `background.images` refuse a PNG over 64 Mi pixels with 65 naming the limit,
/// instead of allocating gigabytes (a 210 KB file declaring 16384 × 16384).
@Suite("PNG pixel limit at the command line")
struct PNGLimitCommandTests {
  let folder = TemporaryFolder("png-limit")

  @Test("compare bomb.png bomb.png exits 65 naming the limit")
  func compare() {
    defer { folder.remove() }
    let bomb = folder.write(ZeroPNG.bytes(width: 16384, height: 16384), to: "bomb.png")
    let (status, output) = runCommand(["compare", bomb, bomb])
    #expect(status == 65)
    #expect(output.standardError.contains("bomb.png"))
    #expect(output.standardError.contains("64 Mi pixels"))
  }

  @Test("a background.images folder holding it exits 65 naming the limit")
  func backgroundImages() throws {
    defer { folder.remove() }
    folder.write(ZeroPNG.bytes(width: 16384, height: 16384), to: "bg/bomb.png")
    try FileManager.default.copyItem(
      atPath: Fixtures.repositoryPath("Scenes/Inputs/tum_fr1_xyz_groundtruth.txt"),
      toPath: folder.file("track.txt"))
    let scene = folder.write(
      """
      {"name":"t","track":{"path":"track.txt"},"output":{"width":64,"height":48},
       "duration":0.1,"background":{"images":"bg"}}
      """, to: "scene.json")
    let (status, output) = runCommand(["render", scene, "--out", folder.file("out")])
    #expect(status == 65)
    #expect(output.standardError.contains("64 Mi pixels"))
  }
}
