import ARRender
import ARTestSupport
import Foundation

@testable import ARSimCLI

/// A temporary folder with a small scene (the bundled TUM desk track and house-and-undo stroke
/// log at 64×48 px, 1 s at 30 frames/s: events at frames 15 and 22, the one of frame 22 from
/// the AR tick before that frame's), and helpers to render and merge in-process.
struct ShardFixture {
  let root: String
  var scene: String { root + "/scene.json" }

  static var repository: String { Fixtures.repository }

  init(strokes: String = "house-undo.jsonl") throws {
    root = TemporaryFolder("shards").path
    let inputs = Self.repository + "/Scenes/Inputs"
    try FileManager.default.copyItem(
      atPath: inputs + "/" + strokes, toPath: root + "/strokes.jsonl")
    let scene = """
      {
        "name": "shards",
        "track": {"path": "\(inputs)/tum_fr1_xyz_groundtruth.txt", "format": "tum"},
        "intrinsics": {"fx": 517.3, "fy": 516.5, "cx": 318.6, "cy": 255.3, "width": 640, "height": 480},
        "viewport": "landscape",
        "output": {"width": 64, "height": 48, "fps": 30},
        "duration": 1.0,
        "remoteAssist": {"strokes": "strokes.jsonl", "mode": "faithful"}
      }
      """
    try scene.write(toFile: self.scene, atomically: true, encoding: .utf8)
  }

  func remove() { try? FileManager.default.removeItem(atPath: root) }

  /// Runs `arsim ARGUMENTS` in-process.
  @discardableResult
  func arsim(_ arguments: [String]) -> (code: Int32, standardError: String) {
    let (code, output) = runCommand(arguments)
    return (code, output.standardError)
  }

  /// Renders shard `index`/`count` of `frames` into `root/NAME`.
  func renderShard(
    _ index: Int, of count: Int, frames: String? = nil, name: String? = nil,
    options: [String] = []
  ) throws -> String {
    let out = root + "/" + (name ?? "shard-\(index)")
    let result = arsim(
      ["render", scene, "--shard", "\(index)/\(count)", "--out", out, "--threads", "1"]
        + (frames.map { ["--frames", $0] } ?? []) + options)
    guard result.code == 0 else { throw FixtureError(result.standardError) }
    return out
  }

  func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

  /// `run.json` as an object, without `timing` and `merge`.
  func runFile(_ folder: String) throws -> NSDictionary {
    let object = try JSONSerialization.jsonObject(with: bytes(folder + "/run.json"))
    let dictionary = (object as? NSDictionary)?.mutableCopy() as? NSMutableDictionary ?? [:]
    dictionary.removeObject(forKey: "timing")
    dictionary.removeObject(forKey: "merge")
    return dictionary
  }

  /// File names in `folder`, sorted.
  /// The folder's entries, without the output lock a render leaves (`.arsim-lock`: not part
  /// of the output, and a merge does not write one).
  func names(_ folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0 != ".arsim-lock" }
      .sorted()
  }

  func inode(_ path: String) -> UInt64 {
    var info = stat()
    return stat(path, &info) == 0 ? UInt64(info.st_ino) : 0
  }
}

struct FixtureError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
