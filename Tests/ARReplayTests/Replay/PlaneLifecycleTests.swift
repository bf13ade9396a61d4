import ARMath
import ARRender
import ARSimCLI
import ARTestSupport
import Foundation
import Testing

/// ARKit's plane lifecycle in a replay: anchors update in steps, are removed or merged; events,
/// trace, pixels and the measuring tool follow the current state each tick.
@Suite("plane anchor lifecycle in a replay")
struct PlaneLifecycleTests {
  /// A camera 1.5 m above the origin looking straight down (pitch −90°), for 2 s.
  static func fixture(scene: String) throws -> ReplayFixture {
    let fixture = try ReplayFixture()
    let down = RigidTransform(
      rotation: Quaternion(axis: .unitX, angleRadians: -.pi / 2), translation: Vector3(0, 1.5, 0))
    try fixture.writeTrack("track.json", [(0, down), (2, down)])
    try fixture.write("scene.json", scene)
    return fixture
  }

  static func scene(planes: String, extra: String = "") -> String {
    """
    {"name": "planes", "track": {"path": "track.json", "format": "json"},
     "output": {"width": 16, "height": 12, "fps": 10}, "duration": 1.0,
     "background": {"color": [0.5, 0.5, 0.5]}, "planes": [\(planes)]\(extra)}
    """
  }

  func render(_ fixture: ReplayFixture) -> (Int32, String) {
    let captured = CapturedOutput()
    let code = ARSimCLI.run(
      arguments: [
        "render", fixture.directory + "/scene.json", "--out", fixture.directory + "/out",
      ],
      output: captured.output)
    return (code, captured.standardError)
  }

  @Test("added, updated (the visual moves with center), merged into another: events and trace")
  func mergeEventsAndTrace() throws {
    let fixture = try Self.fixture(
      scene: Self.scene(
        planes: """
          {"id": "floor", "position": [0, 0, 0], "extent": [1, 1], "visualization": "translucent",
           "updates": [{"t": 0.3, "center": [0.5, 0, 0], "extent": [2, 1]}],
           "disappearsAt": 0.6, "mergedInto": "big"},
          {"id": "big", "position": [3, 0, 0], "extent": [2, 2], "visualization": "translucent",
           "appearsAt": 0.2,
           "updates": [{"t": 0.6, "center": [-1.5, 0, 0], "extent": [5, 2]}]}
          """))
    defer { fixture.remove() }
    let (code, message) = render(fixture)
    #expect(code == 0, "\(message)")
    #expect(!message.contains("warning"), "\(message)")
    let events = try fixture.jsonLines("events.jsonl").filter {
      ($0["event"] as? String ?? "").hasPrefix("plane-")
    }
    let summary = events.map {
      "\($0["frame"] as? Int ?? -1) \($0["event"] as? String ?? "") \($0["anchor"] as? String ?? "")"
    }
    // floor is there from the first tick (no event); big is detected at τ = 0.2.
    #expect(
      summary == [
        "2 plane-added big", "3 plane-updated floor", "6 plane-updated big",
        "6 plane-removed floor",
      ])
    try #require(events.count == 4)
    #expect(events[0]["extent"] as? [Double] == [2, 2])
    #expect(events[1]["extent"] as? [Double] == [2, 1])
    #expect(events[1]["center"] as? [Double] == [0.5, 0, 0])
    #expect(events[3]["reason"] as? String == "merged")
    #expect(events[3]["mergedInto"] as? String == "big")

    let trace = try fixture.jsonLines("trace.jsonl")
    try #require(trace.count == 11)
    func visual(_ frame: Int, _ anchor: String) -> [Double]? {
      let nodes = trace[frame]["nodes"] as? [[String: Any]] ?? []
      let node = nodes.first {
        $0["name"] as? String == "plane-visual" && $0["anchor"] as? String == anchor
      }
      return node?["worldTransform"] as? [Double]
    }
    #expect(visual(2, "floor")?[12] == 0)  // translation x before the update
    #expect(visual(3, "floor")?[12] == 0.5)  // from τ = 0.3 on, at the new center
    #expect(visual(5, "floor") != nil)
    #expect(visual(6, "floor") == nil)  // merged away
    #expect(visual(1, "big") == nil)  // not detected yet
    #expect(visual(5, "big")?[12] == 3)
    #expect(visual(6, "big")?[12] == 1.5)
  }

  @Test("a plane that disappears: the measuring tool goes NOT READY and its visual is gone")
  func measureOnVanishingPlane() throws {
    let fixture = try Self.fixture(
      scene: Self.scene(
        planes: """
          {"id": "desk", "position": [0, 0, 0], "extent": [2, 2], "visualization": "translucent",
           "disappearsAt": 0.5}
          """, extra: #", "measure": {"switchTimes": [0.1]}"#))
    defer { fixture.remove() }
    let (code, message) = render(fixture)
    #expect(code == 0, "\(message)")
    let statuses = try fixture.jsonLines("trace.jsonl").map {
      ($0["measure"] as? [String: Any])?["status"] as? String ?? ""
    }
    #expect(
      Array(statuses[0...5]) == [
        "READY", "MEASURING", "MEASURING", "MEASURING", "MEASURING", "NOT READY",
      ])
    #expect(statuses[6...].allSatisfy { $0 == "NOT READY" })
    let removed = try fixture.jsonLines("events.jsonl").filter {
      $0["event"] as? String == "plane-removed"
    }
    #expect(removed.count == 1)
    #expect(removed.first?["frame"] as? Int == 5)
    #expect(removed.first?["reason"] as? String == "removed")
    // The translucent blue covers the centre pixel until the plane goes.
    let before = try Image(contentsOfPNG: fixture.directory + "/out/frame_00004.png")
    let after = try Image(contentsOfPNG: fixture.directory + "/out/frame_00005.png")
    #expect(before[8, 6] != after[8, 6])
    #expect(after[8, 6] == after[0, 0])  // only the grey background is left
  }

  @Test(
    "bad lifecycles are errors naming the field",
    arguments: [
      (#""disappearsAt": 0"#, "planes[0].disappearsAt"),
      (#""disappearsAt": 1, "mergedInto": "nothing""#, "planes[0].mergedInto"),
      (#""mergedInto": "floor""#, "planes[0].mergedInto"),
      (#""updates": [{"t": 0.5}, {"t": 0.4}]"#, "planes[0].updates[1].t"),
      (#""updates": [{"t": 0.5, "extent": [1]}]"#, "planes[0].updates[0].extent"),
      (#""updates": [{"t": 0.9}], "disappearsAt": 0.8"#, "planes[0].disappearsAt"),
    ])
  func badLifecycle(fields: String, field: String) throws {
    let fixture = try Self.fixture(
      scene: Self.scene(
        planes: #"{"id": "floor", "position": [0, 0, 0], "extent": [1, 1], "#
          + fields + "}"))
    defer { fixture.remove() }
    let (code, message) = render(fixture)
    #expect(code == 65, "\(message)")
    #expect(message.contains("field '\(field)'"), "\(message)")
  }

  @Test("a merge into a discovered anchor's name says discovered anchors are not merge targets")
  func mergeIntoDiscovered() throws {
    let fixture = try Self.fixture(
      scene: Self.scene(
        planes: #"{"id": "floor", "position": [0, 0, 0], "extent": [1, 1], "#
          + #""disappearsAt": 1, "mergedInto": "discovered-1"}"#))
    defer { fixture.remove() }
    let (code, message) = render(fixture)
    #expect(code == 65, "\(message)")
    #expect(message.contains("field 'planes[0].mergedInto'"), "\(message)")
    #expect(message.contains("discovered anchors are not merge targets"), "\(message)")
  }

  @Test(
    "an id clash with a plane's default id (plane-N) says the default; two written ids as before",
    arguments: [
      (
        #"{"id": "plane-1", "position": [0, 0, 0], "extent": [1, 1]}, {"position": [0, 0, 1], "extent": [1, 1]}"#,
        "scene.json:3: field 'planes[1]': ",
        "'plane-1' is used twice: planes[1] has no id, so its id is 'plane-1'"
      ),
      (
        #"{"position": [0, 0, 0], "extent": [1, 1]}, {"id": "plane-0", "position": [0, 0, 1], "extent": [1, 1]}"#,
        "scene.json:3: field 'planes[1].id': ",
        "'plane-0' is used twice: planes[0] has no id, so its id is 'plane-0'"
      ),
      (
        #"{"id": "a", "position": [0, 0, 0], "extent": [1, 1]}, {"id": "a", "position": [0, 0, 1], "extent": [1, 1]}"#,
        "scene.json:3: field 'planes[1].id': ", "'a' is used twice"
      ),
    ])
  func defaultIdentifierClash(planes: String, field: String, reason: String) throws {
    let fixture = try Self.fixture(scene: Self.scene(planes: planes))
    defer { fixture.remove() }
    let (code, message) = render(fixture)
    #expect(code == 65, "\(message)")
    #expect(message.contains(field), "\(message)")
    #expect(message.contains(reason), "\(message)")
  }
}
