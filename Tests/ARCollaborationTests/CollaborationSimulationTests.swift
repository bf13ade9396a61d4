import ARMath
import ARSession
import Testing

@testable import ARCollaboration

@Suite("CollaborationSimulation")
struct CollaborationSimulationTests {
  /// A camera 1 m above `position`, looking straight down (−Z to world −Y).
  static func cameraAbove(_ position: Vector3) -> Matrix4 {
    Matrix4(
      rotation: Quaternion(axis: .unitX, angleRadians: -.pi / 2).rotationMatrix,
      translation: position + Vector3(0, 1, 0))
  }

  static func run(_ scene: CollaborationScene, seconds: Double, cameras: [Matrix4?])
    -> CollaborationSimulation
  {
    let simulation = CollaborationSimulation(scene: scene)
    for tick in 0...Int((seconds * 60).rounded()) {
      let t = Double(tick) / 60
      simulation.step(tick: tick, t: t, microseconds: Int64((t * 1e6).rounded()), cameras: cameras)
    }
    return simulation
  }

  @Test("a model added at the screen centre lands where the camera's −Z ray meets the floor")
  func screenCenter() throws {
    // A's anchor at (1, 0, 2): collabBase 0.05 m higher; the camera 1 m above (1.3, 0.05, 2.4).
    let scene = CollaborationScene(
      participants: [
        Participant(id: "A", anchor: .transform(Matrix4(translation: Vector3(1, 0, 2)))),
        Participant(id: "B", anchor: .transform(.identity)),
      ],
      actions: [
        ModelAction(
          seconds: 0.5, participant: "A", model: "m",
          kind: .add(usdz: "x", placement: .screenCenter))
      ])
    let simulation = Self.run(
      scene, seconds: 1,
      cameras: [Self.cameraAbove(Vector3(1.3, 0.05, 2.4)), Self.cameraAbove(.zero)])
    let model = try #require(simulation.states[0].models.first)
    let p = model.transform.value(at: 1_000_000).translation
    #expect(abs(p.x - 0.3) < 1e-6 && p.y == 0 && abs(p.z - 0.4) < 1e-6)
    // B got it through singleCollabModel, at the same collabBase place.
    let remote = try #require(simulation.states[1].models.first)
    #expect(remote.transform.value(at: 1_000_000).translation == p)
  }

  @Test("a message over Agora RTM's 32 KB fails: nothing delivered, a warning, a failed record")
  func oversizedModel() throws {
    let id = String(repeating: "m", count: 40_000)
    let scene = CollaborationScene(
      participants: [
        Participant(id: "A", anchor: .transform(.identity)),
        Participant(id: "B", anchor: .transform(.identity)),
      ],
      actions: [
        ModelAction(
          seconds: 0.5, participant: "A", model: id,
          kind: .add(usdz: "x", placement: .collabBase(.identity)))
      ])
    let simulation = Self.run(scene, seconds: 1, cameras: [.identity, .identity])
    #expect(simulation.states[0].models.count == 1)
    #expect(simulation.states[1].models.isEmpty)
    let failed = simulation.network.records.filter { $0.failure != nil }
    #expect(failed.map(\.message.type) == ["singleCollabModel"])
    let warnings = simulation.takeEvents(0).filter { $0.name == "warning" }
    #expect(warnings.count == 1)
  }

  @Test("peer updates: every 0.3 s from join, camera in collabBase space, the others' sphere at it")
  func peerUpdates() throws {
    // B's collabBase is turned 90° about +Y; A's camera sits 0.5 m along A's base +X.
    let turn = Matrix4(
      rotation: Quaternion(axis: .unitY, angleRadians: .pi / 2).rotationMatrix,
      translation: Vector3(5, 0, 0))
    let scene = CollaborationScene(
      participants: [
        Participant(id: "A", anchor: .transform(.identity)),
        Participant(id: "B", anchor: .transform(turn)),
      ])
    let cameraA = Matrix4(translation: Vector3(0.5, 0.05, 0))
    let simulation = Self.run(scene, seconds: 1, cameras: [cameraA, nil])
    let sent = simulation.network.records.filter { $0.message.type == "peerUpdate" }
    #expect(sent.map(\.message.sendMicroseconds) == [300_000, 600_000, 900_000])
    let peer = try #require(simulation.states[1].peers.first)
    #expect(peer.transform.value(at: 1_000_000).translation == SIMD3(0.5, 0, 0))
    // In B's world: B's base origin (5, 0.05, 0) + R_y(90°)·(0.5, 0, 0) = (5, 0.05, −0.5).
    let base = try #require(simulation.snapshot(1).makeNodes(assets: [:]).first)
    let sphere = try #require(base.childNodes.first { $0.name == "A" })
    let world = sphere.worldTransform.translation
    #expect((world - Vector3(5, 0.05, -0.5)).length < 1e-6)
  }
}
