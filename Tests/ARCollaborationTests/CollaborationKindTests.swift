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
