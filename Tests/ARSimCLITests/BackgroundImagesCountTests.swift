import ARRender
import ARTestSupport
import Foundation
import Testing

/// `background.images` with fewer images than frames: the last image stands for the rest, as
/// before, but now with a warning (a newcomer's finding: it was silent and undocumented).
@Suite struct BackgroundImagesCountTests {
  @Test("2 images for 3 frames: a warning naming the field and the frames; 3 for 3: none")
  func fewerImagesThanFrames() throws {
    let folder = TemporaryFolder("background-images-count")
    defer { folder.remove() }
    try FileManager.default.copyItem(
      atPath: Fixtures.repositoryPath("Scenes/Inputs/tum_fr1_xyz_groundtruth.txt"),
      toPath: folder.file("track.txt"))
    try FileManager.default.createDirectory(
      atPath: folder.file("bg"), withIntermediateDirectories: true)
    let colours: [(UInt8, UInt8, UInt8, UInt8)] = [(255, 0, 0, 255), (0, 255, 0, 255)]
    for (i, colour) in colours.enumerated() {
      try Image(width: 8, height: 6, fill: colour).writePNG(to: folder.file("bg/\(i).png"))
    }
    let scene = folder.write(
      """
      {"name":"t","track":{"path":"track.txt"},"output":{"width":8,"height":6,"fps":10},
       "frames":3,
       "background":{"images":"bg"}}
      """, to: "scene.json")
    let (status, output) = runCommand(["render", scene, "--out", folder.file("out")])
    #expect(status == 0, "\(output.standardError)")
    #expect(
      output.standardError.contains(
        "scene.json:3: field 'background.images': 2 images for 3 frames: frames 2…2 show the "
          + "last one"), "\(output.standardError)")
    // Frame 2 shows the last image (green), as documented.
    let last = try Image(contentsOfPNG: folder.file("out/frame_00002.png"))
    #expect(last[4, 3] == (0, 255, 0, 255))
    try Image(width: 8, height: 6).writePNG(to: folder.file("bg/2.png"))
    let (again, quiet) = runCommand(["render", scene, "--out", folder.file("out2")])
    #expect(again == 0)
    #expect(!quiet.standardError.contains("background.images"), "\(quiet.standardError)")
  }
}
