import ARReplay
import ARSession
import ARSimCLI
import ARSupport
import ARTestSupport
import Foundation
import Testing

/// A participant's track, intrinsics and output decode through the scene file's shared specs
/// (ARSession), so their mistakes read as the top level's: `file:line: field '…'`.
@Suite("Collaboration scene-file specs")
struct SceneFileSpecTests {
  static let inputs = Fixtures.repositoryPath("Scenes/Inputs")

  /// A scene with two participants, one key per line; `second` is the second participant's
  /// extra fields and `section` the section's, each written on lines of their own.
  func scene(second: String = "", section: String = "", secondTrack: String? = nil) -> String {
    let track = Self.inputs + "/arkit_datalogger_camera_pose.txt"
    let trackB = secondTrack ?? #"{"path": "\#(track)"}"#
    return """
      {
        "name": "specs",
        "duration": 0.5,
        "collaboration": {\(section)
          "participants": [
            {"id": "A", "track": {"path": "\(track)"}, "anchor": {"position": [0, 0, -1]}},
            {
              "id": "B",\(second)
              "track": \(trackB),
              "anchor": {"position": [0, 0, -1]}
            }
          ]
        }
      }
      """
  }

  /// Loads `text` as a scene file: the error text or the warnings.
  func load(_ text: String) -> (error: String?, warnings: [String], path: String) {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("arsim-specs-\(UUID().uuidString).json").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
      try FileIO.writeAtomically(Array(text.utf8), to: path)
      let loaded = try ReplayScene.load(path: path, registry: .builtIn)
      return (nil, loaded.warnings, path)
    } catch {
      return ("\(error)", [], path)
    }
  }

  @Test("a participant's fractional intrinsics width names its line and field, as at top level")
  func intrinsicsWidth() throws {
    let text = scene(
      second: """

                "intrinsics": {"fx": 500, "fy": 500, "cx": 320, "cy": 240,
                  "width": 640.5, "height": 480},
        """)
    let (error, _, path) = load(text)
    // Line 10 holds the width (line 9 opens the intrinsics object).
    #expect(
      error
        == "\(path):10: field 'collaboration.participants[1].intrinsics.width': "
        + "expected an integer from -2^53 to 2^53, found 640.5")
  }

  @Test("a participant's bad intrinsics and output are checked as at top level")
  func intrinsicsValues() throws {
    let bad = load(
      scene(
        second: """

                  "intrinsics": {"fx": -1, "fy": 500, "cx": 320, "cy": 240, "width": 640, "height": 480},
          """)
    ).error
    #expect(
      bad?.hasSuffix(
        ":9: field 'collaboration.participants[1].intrinsics': fx and fy must be positive and all values finite"
      ) == true, "\(bad ?? "loaded")")
    let output = load(
      scene(
        second: """

                  "output": {"width": 320, "height": 0},
          """)
    ).error
    #expect(
      output?.hasSuffix(
        ":9: field 'collaboration.participants[1].output': width and height must be 1…16384 (got 320×0)"
      ) == true, "\(output ?? "loaded")")
  }

  @Test("a seed of 1e30 or -1 names its line and field", arguments: ["1e30", "-1", "2.5"])
  func seed(_ written: String) throws {
    let (error, _, path) = load(scene(section: "\n    \"seed\": \(written),"))
    #expect(
      error
        == "\(path):5: field 'collaboration.seed': expected an integer from 0 to 2^64-1, found \(written)"
    )
  }

  @Test("the largest seed loads exactly")
  func largestSeed() throws {
    #expect(load(scene(section: "\n    \"seed\": 18446744073709551615,")).error == nil)
  }

  @Test("a RealityKit Float out of range names its field")
  func floatRange() throws {
    let (error, _, path) = load(scene(section: "\n    \"room\": {\"position\": [0, 1e300, 0]},"))
    #expect(
      error
        == "\(path):5: field 'collaboration.room.position': expected 3 numbers within ±3.4e38 (RealityKit's Float)"
    )
  }

  @Test("a network link from a participant to itself names its field")
  func selfLink() throws {
    let (error, _, path) = load(
      scene(
        section:
          "\n    \"network\": {\"links\": [{\"from\": \"A\", \"to\": \"A\", \"latency\": 0.1}]},"))
    #expect(
      error
        == "\(path):5: field 'collaboration.network.links[0].to': 'A' is the link's own sender: a link joins two participants"
    )
  }

  @Test("a second link for one direction names its field and the first (it won silently)")
  func duplicateLink() throws {
    let links =
      #"{"from": "A", "to": "B", "latency": 0.1}, {"from": "B", "to": "A", "latency": 0.2},"#
      + #" {"from": "A", "to": "B", "latency": 0.5}"#
    let (error, _, path) = load(scene(section: "\n    \"network\": {\"links\": [\(links)]},"))
    #expect(
      error
        == "\(path):5: field 'collaboration.network.links[2]': a second link from 'A' to 'B' "
        + "(collaboration.network.links[0] is the first): one link per direction")
  }

  @Test(
    "a model's zero quaternion names its field, as a track's does",
    arguments: [
      "[0, 0, 0, 0]", "[1e-50, 0, 0, 0]",
    ])
  func zeroRotation(_ written: String) throws {
    let action =
      "\n    \"assets\": {\"rock\": {\"sphere\": {\"radius\": 0.1}}},"
      + "\n    \"actions\": [{\"t\": 0.1, \"participant\": \"A\", \"add\": "
      + "{\"model\": \"m\", \"usdz\": \"rock\", \"rotation\": \(written)}}],"
    let (error, _, _) = load(scene(section: action))
    #expect(
      error?.contains(
        ":6: field 'collaboration.actions[0].add.rotation': a quaternion of zero length is no rotation"
      )
        == true, "\(error ?? "loaded")")
  }

  @Test("a participant's KITTI track takes its times file; no field is ignored")
  func trackTimes() throws {
    let temporary = TemporaryFolder("specs-kitti")
    defer { temporary.remove() }
    let folder = temporary.path
    // Three KITTI poses (row-major 3×4, identity rotation) and their times, 0.25 s apart.
    let poses = (0..<3).map { "1 0 0 \(Double($0) / 10) 0 1 0 0 0 0 1 0\n" }.joined()
    try FileIO.writeAtomically(Array(poses.utf8), to: folder + "/poses.txt")
    try FileIO.writeAtomically(Array("0.0\n0.25\n0.5\n".utf8), to: folder + "/times.txt")
    let track =
      #"{"path": "\#(folder)/poses.txt", "format": "kitti", "times": "\#(folder)/times.txt"}"#
    let text = scene(secondTrack: track)
    let path = folder + "/scene.json"
    try FileIO.writeAtomically(Array(text.utf8), to: path)
    let loaded = try ReplayScene.load(path: path, registry: .builtIn)
    #expect(loaded.warnings.allSatisfy { !$0.contains("not a scene field") }, "\(loaded.warnings)")
    let views = try #require(
      loaded.sessions.lazy.compactMap { $0.configuration as? any MultiViewConfiguration }.first
    ).views
    #expect(views.map(\.name) == ["A", "B"])
    #expect(views[1].track.poses.map(\.timeSeconds) == [0, 0.25, 0.5])
    #expect(views[1].trackPaths == [folder + "/poses.txt", folder + "/times.txt"])
    // A missing times file is reported against the participant's field.
    let missing = scene(secondTrack: #"{"path": "\#(folder)/poses.txt", "times": "nowhere.txt"}"#)
    let message = try #require(load(missing).error)
    #expect(message.contains("field 'collaboration.participants[1].track.times'"), "\(message)")
  }

  @Test("an unknown field's warning names its line")
  func unknownFieldLine() throws {
    let (error, warnings, path) = load(scene(second: "\n          \"colour\": [1, 0, 0],"))
    #expect(error == nil)
    #expect(
      warnings.contains(
        "\(path):9: field 'collaboration.participants[1].colour' is not a scene field; ignored"),
      "\(warnings)")
  }
}
