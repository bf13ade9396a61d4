import ARReplay
import ARSimCLI
import ARSupport
import ARTestSupport
import Foundation
import Testing

@testable import ARCollaboration

@Suite("CollaborationKind")
struct CollaborationKindTests {
  static let inputs = Fixtures.repositoryPath("Scenes/Inputs")

  /// Loads a scene whose `collaboration` section is `section`; returns the error text, if any.
  func load(_ section: String) -> String? {
    let track = Self.inputs + "/arkit_datalogger_camera_pose.txt"
    let text = """
      {"name": "k", "track": {"path": "\(track)", "format": "arkit"}, "duration": 1,
       "collaboration": \(section)}
      """
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("arsim-kind-\(UUID().uuidString).json").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
      try FileIO.writeAtomically(Array(text.utf8), to: path)
      _ = try ReplayScene.load(path: path, registry: .builtIn)
      return nil
    } catch {
      return "\(error)"
    }
  }

  func participant(_ id: String, anchor: String = #"{"position": [0, 0, -1]}"#) -> String {
    let track = Self.inputs + "/arkit_datalogger_camera_pose.txt"
    return #"{"id": "\#(id)", "track": {"path": "\#(track)"}, "anchor": \#(anchor)}"#
  }

  @Test(
    "an id naming one of the top folder's own files is refused (65) before any output",
    arguments: [
      "run.json", "messages.jsonl", "events.jsonl", "trace.jsonl", ".arsim-lock", "report.html",
      "frame_00000.png", "depth_00012.png", "helper", ".hidden",
    ])
  func idCollidesWithRunFile(id: String) throws {
    let error = try #require(
      load(#"{"participants": [\#(participant("B")), \#(participant(id))]}"#))
    #expect(error.contains("collaboration.participants[1].id"), "\(error)")
    #expect(error.contains("output folder's own files"), "\(error)")
    // The command: 65, and the output folder is never made.
    let folder = TemporaryFolder("collab-ids")
    defer { folder.remove() }
    let scene = folder.write(
      #"{"name": "k", "duration": 1, "collaboration": {"participants": [\#(participant(id)), "#
        + #"\#(participant("B"))]}}"#, to: "scene.json")
    let (code, output) = runCommand(["render", scene, "--out", folder.file("out")])
    #expect(code == 65, "\(output.standardError)")
    #expect(output.standardError.contains("collaboration.participants[0].id"))
    #expect(!FileManager.default.fileExists(atPath: folder.file("out")))
  }

  /// Loads `section` and returns the scene's warnings.
  func warnings(_ section: String, topLevelTrack: Bool = true) throws -> [String] {
    let track = Self.inputs + "/arkit_datalogger_camera_pose.txt"
    let folder = TemporaryFolder("collab-warnings")
    defer { folder.remove() }
    let path = folder.write(
      #"{"name": "k", "#
        + (topLevelTrack ? #""track": {"path": "\#(track)", "format": "arkit"}, "# : "")
        + #""duration": 1, "collaboration": \#(section)}"#, to: "scene.json")
    return try ReplayScene.load(path: path, registry: .builtIn).warnings
  }

  @Test("an action on a model no action adds is warned about; a top-level track is ignored")
  func ignoredInputs() throws {
    let two = participant("A") + ", " + participant("B")
    let actions =
      #"[{"t": 0.1, "participant": "A", "add": {"model": "tree", "usdz": "forest_tree1"}}, "#
      + #"{"t": 0.5, "participant": "A", "move": "tre", "path": [{"t": 0.6, "translation": [0, 0, 0]}]}]"#
    let found = try warnings(#"{"participants": [\#(two)], "actions": \#(actions)}"#)
    #expect(
      found.contains {
        $0.contains("field 'collaboration.actions[1]'")
          && $0.contains("no action adds a model 'tre'")
      }, "\(found)")
    #expect(!found.contains { $0.contains("actions[0]") })
    #expect(found.contains { $0.contains("field 'track': ignored") }, "\(found)")
    let without = try warnings(#"{"participants": [\#(two)]}"#, topLevelTrack: false)
    #expect(!without.contains { $0.contains("ignored") }, "\(without)")
  }

  @Test("a participant's track too short for its start and the duration names its field and line")
  func trackTooShort() throws {
    let folder = TemporaryFolder("collab-short")
    defer { folder.remove() }
    let track = Self.inputs + "/arkit_datalogger_camera_pose.txt"
    let scene = folder.write(
      """
      {"name": "k", "duration": 1, "collaboration": {"participants": [
        \(participant("A")),
        {"id": "B", "start": 1e6,
         "track": {"path": "\(track)"}, "anchor": {"position": [0, 0, -1]}}]}}
      """, to: "scene.json")
    let (code, output) = runCommand(["render", scene, "--out", folder.file("out")])
    #expect(code == 65, "\(output.standardError)")
    // Line 4: the track's key (a newcomer saw "field 'view 'B' track'" with no line).
    #expect(
      output.standardError.contains("scene.json:4: field 'collaboration.participants[1].track'"),
      "\(output.standardError)")
    #expect(output.standardError.contains("view 'B': the replay runs to 1000001.0 s"))
  }

  @Test("a good section loads; bad ones name the field")
  func errors() throws {
    let two = participant("A") + ", " + participant("B")
    #expect(load(#"{"participants": [\#(two)]}"#) == nil)
    let cases: [(String, String)] = [
      (#"{"participants": [\#(participant("A"))]}"#, "collaboration.participants"),
      (
        #"{"participants": [\#(participant("A")), \#(participant("A"))]}"#,
        "collaboration.participants[1].id"
      ),
      (
        #"{"participants": [\#(participant("A/")), \#(participant("B"))]}"#,
        "collaboration.participants[0].id"
      ),
      (
        #"{"participants": [\#(participant("A", anchor: #"{"plane": {"position": [0, 0, 0], "extent": [0.5, 2]}}"#)), \#(participant("B"))]}"#,
        "collaboration.participants[0].anchor.plane.extent"
      ),
      (
        #"{"participants": [\#(participant("A", anchor: #"{"plane": {"position": [0, 0, 0], "eulerAngles": [1.57, 0, 0], "extent": [2, 2]}}"#)), \#(participant("B"))]}"#,
        "collaboration.participants[0].anchor.plane.eulerAngles"
      ),
      (
        #"{"participants": [\#(two)], "actions": [{"t": 1, "participant": "Z", "select": "m"}]}"#,
        "collaboration.actions[0].participant"
      ),
      (
        #"{"participants": [\#(two)], "actions": [{"t": 1, "participant": "A", "select": "m", "remove": "m"}]}"#,
        "collaboration.actions[0]"
      ),
      (#"{"participants": [\#(two)], "network": {"loss": 2}}"#, "collaboration.network.loss"),
      (
        #"{"participants": [\#(two)], "room": {"channelID": "lobby"}}"#,
        "collaboration.room.channelID"
      ),
    ]
    for (section, field) in cases {
      let message = try #require(load(section), "loaded: \(field)")
      #expect(message.contains("'\(field)'"), "\(message)")
    }
  }
}
