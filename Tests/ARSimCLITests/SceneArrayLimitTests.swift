import ARTestSupport
import Foundation
import Testing

/// The scene file's arrays that cost every frame have documented limits (SceneFile.md), refused
/// with 65 naming the field before any frame (200 000 lights took over a minute for 10 frames).
@Suite("Scene array limits")
struct SceneArrayLimitTests {
  let folder = TemporaryFolder("array-limits")

  func render(_ extra: String) throws -> (Int32, String) {
    let scene = folder.write(
      """
      {"name":"t","track":{"path":"track.txt"},"output":{"width":16,"height":12},
       "duration":0.1,\(extra)}
      """, to: "scene.json")
    try FileManager.default.copyItem(
      atPath: Fixtures.repositoryPath("Scenes/Inputs/tum_fr1_xyz_groundtruth.txt"),
      toPath: folder.file("track.txt"))
    let (status, output) = runCommand(["render", scene, "--out", folder.file("out")])
    return (status, output.standardError)
  }

  static func repeated(_ item: String, _ count: Int) -> String {
    "[" + Array(repeating: item, count: count).joined(separator: ",") + "]"
  }

  @Test("8 lights render; 9 are refused naming 'lights' and the limit")
  func lights() throws {
    defer { folder.remove() }
    let light = #"{"type":"ambient","intensity":0.1}"#
    let (ok, log) = try render(#""lights":"# + Self.repeated(light, 8))
    #expect(ok == 0, "\(log)")
    folder.remove()
    let (status, errors) = try render(#""lights":"# + Self.repeated(light, 9))
    #expect(status == 65)
    #expect(errors.contains("field 'lights'") && errors.contains("at most 8"), "\(errors)")
    #expect(!FileManager.default.fileExists(atPath: folder.file("out")))
  }

  @Test("more than 100 000 nodes, children included, are refused naming 'nodes'")
  func nodes() throws {
    defer { folder.remove() }
    let leaf = #"{"position":[0,0,-1]}"#
    let parent = #"{"children":"# + Self.repeated(leaf, 999) + "}"
    // 100 parents of 999 children and one more: 100 001 nodes.
    let (status, errors) = try render(
      #""nodes":"# + String(Self.repeated(parent, 100).dropLast()) + "," + leaf + "]")
    #expect(status == 65)
    #expect(errors.contains("field 'nodes'") && errors.contains("100001 nodes"), "\(errors)")
  }

  @Test("more than 10 000 planes are refused naming 'planes'")
  func planes() throws {
    defer { folder.remove() }
    let plane = #"{"position":[0,0,-1],"extent":[1,1]}"#
    let (status, errors) = try render(#""planes":"# + Self.repeated(plane, 10_001))
    #expect(status == 65)
    #expect(errors.contains("field 'planes'") && errors.contains("at most 10000"), "\(errors)")
  }
}
