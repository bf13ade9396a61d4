import ARReplay
import ARScene
import ARSimCLI
import ARTestSupport
import Testing

/// In a multi-view scene every view discovers planes from its own camera, as each device's
/// ARKit session does: its planes equal those of a single-view scene that follows the same
/// track, whatever the participants' order. (A newcomer found every participant given the
/// planes of the first participant's camera.)
@Suite struct ViewPlaneDiscoveryTests {
  static let inputs = SceneGoldenTests.scenesDirectory + "/Inputs"
  /// The bundled room's desk, 1.6 × 0.04 × 1.0 m, top at y = 0.73: the xyz track looks at it,
  /// the ARKit logger's track (another room) never does.
  static let environment = """
    "environment": {"planeDetection": ["horizontal"], "primitives": [{"name": "desk",
      "box": {"width": 1.6, "height": 0.04, "length": 1.0}, "position": [0.35, 0.71, -0.65]}]}
    """
  static let tracks = [
    "xyz": "{\"path\": \"\(inputs)/tum_fr1_xyz_groundtruth.txt\"}",
    "logger": "{\"path\": \"\(inputs)/arkit_datalogger_camera_pose.txt\", \"format\": \"arkit\"}",
  ]
  static let header = "\"duration\": 3.0, \"output\": {\"width\": 32, \"height\": 24}"

  /// A planes' summary to compare: identifier, classification, when it appears, its first
  /// extent.
  func summary(_ planes: [TimedPlaneAnchor]) -> [String] {
    planes.map {
      let anchor = $0.timeline.initial
      return
        "\(anchor.identifier) \(String(describing: anchor.classification)) \($0.timeline.appearsAt) \(anchor.extent)"
    }
  }

  func singleView(_ track: String, in fixture: ReplayFixture) throws -> [String] {
    let name = "single-\(track).json"
    try fixture.write(
      name,
      "{\"name\": \"single\", \(Self.header), \"track\": \(Self.tracks[track] ?? ""), \(Self.environment)}"
    )
    let scene = try ReplayScene.load(path: fixture.directory + "/" + name, registry: .builtIn)
    return summary(scene.planes)
  }

  /// The views' planes by participant id, the participants in `order`.
  func views(_ order: [String], in fixture: ReplayFixture) throws -> [String: [String]] {
    let participants = order.map {
      "{\"id\": \"\($0)\", \"track\": \(Self.tracks[$0] ?? ""), \"anchor\": {\"position\": [0, 0, 0]}}"
    }
    let name = "views-\(order.joined(separator: "-")).json"
    try fixture.write(
      name,
      "{\"name\": \"views\", \(Self.header), \(Self.environment), "
        + "\"collaboration\": {\"participants\": [\(participants.joined(separator: ","))]}}")
    let scene = try ReplayScene.load(path: fixture.directory + "/" + name, registry: .builtIn)
    var planes: [String: [String]] = [:]
    for (index, view) in scene.viewNames.enumerated() {
      planes[view] = summary(try scene.scene(forView: index).planes)
    }
    return planes
  }

  @Test("Each participant's planes are its own camera's, in either order")
  func ownCamera() throws {
    let fixture = try ReplayFixture()
    defer { fixture.remove() }
    let xyz = try singleView("xyz", in: fixture)
    let logger = try singleView("logger", in: fixture)
    #expect(xyz.count == 1)  // the desk top (the lowest surface here: a floor), seen by xyz
    #expect(logger.isEmpty)
    for order in [["xyz", "logger"], ["logger", "xyz"]] {
      let planes = try views(order, in: fixture)
      #expect(planes["xyz"] == xyz)
      #expect(planes["logger"] == logger)
    }
  }
}
