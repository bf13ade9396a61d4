import ARFormats
import ARMath
import ARSession
import ARSupport
import Foundation
import Testing

@testable import ARCollaboration

/// One simulation for all views: each view, on its own thread, gets what a simulation of its
/// own would have shown it, the simulation steps once per tick, and what it keeps is bounded.
@Suite("Shared collaborative simulation")
struct SharedSimulationTests {
  static let ticks = 150

  /// A participant's camera track: 3 s, walking 1 m along +X at 1.6 m height.
  static func track(offset: Double) -> CameraTrack {
    CameraTrack(
      poses: (0...30).map { k in
        let s = Double(k) / 10
        return TimedPose(
          timeSeconds: s,
          worldFromCamera: RigidTransform(
            rotation: .identity, translation: Vector3(s / 3 + offset, 1.6, 0)))
      }, format: .tum)
  }

  static let scene = CollaborationScene(
    participants: [
      Participant(id: "A", anchor: .transform(Matrix4(translation: Vector3(0, 0, -1)))),
      Participant(
        id: "B", anchor: .transform(Matrix4(translation: Vector3(0.5, 0, -1))), joinSeconds: 0.4),
      Participant(
        id: "C", anchor: .transform(Matrix4(translation: Vector3(0, 0, -2))), lobbySeconds: 0,
        joinSeconds: 1.5),
    ],
    network: .init(
      defaultLink: NetworkLink(latencySeconds: 0.05, jitterSeconds: 0.02), limits: .agoraRTM),
    actions: [
      ModelAction(
        seconds: 0.5, participant: "A", model: "m",
        kind: .add(usdz: "x", placement: .collabBase(.identity)))
    ], seed: 7)

  static let views = ["A", "B", "C"].enumerated().map { i, name in
    ReplayView(name: name, track: track(offset: Double(i)), trackPaths: [], clampTrack: true)
  }

  /// What view `i` shows at one tick: its trace fields' text and its events.
  struct Shown: Equatable {
    var trace: String
    var events: [Event]
  }

  static func time(_ tick: Int) -> (t: Double, microseconds: Int64) {
    let t = Double(tick) / 60
    return (t, Int64((t * 1e6).rounded()))
  }

  /// Every participant's ticks from a simulation stepped on its own (the reference).
  static func alone() -> [[Shown]] {
    let simulation = CollaborationSimulation(scene: scene)
    let cameras = ViewAppCameras(views: views, sceneViewport: .landscape)
    var shown = Array(repeating: [Shown](), count: 3)
    for tick in 0..<ticks {
      let (t, microseconds) = time(tick)
      simulation.step(
        tick: tick, t: t, microseconds: microseconds,
        cameras: cameras.worldFromCamera(tick: tick, t: t))
      for i in 0..<3 {
        shown[i].append(
          Shown(
            trace: JSONValue.object(simulation.snapshot(i).traceFields()).text,
            events: simulation.takeEvents(i)))
      }
    }
    return shown
  }

  /// Views `indices` of one shared simulation, each on its own thread, each taking
  /// `lastTick[i] + 1` ticks; nil if they did not all end within 60 s.
  static func together(_ indices: [Int], lastTick: [Int: Int] = [:]) -> (
    shown: [Int: [Shown]], simulation: SharedCollaborationSimulation
  )? {
    let shared = SharedCollaborationSimulation(
      scene: scene, views: views, indices: indices, sceneViewport: .landscape)
    let results = Collected()
    let group = DispatchGroup()
    for i in indices {
      group.enter()
      Thread {
        var shown: [Shown] = []
        for tick in 0...(lastTick[i] ?? ticks - 1) {
          let (t, microseconds) = time(tick)
          let taken = shared.take(view: i, tick: tick, t: t, microseconds: microseconds)
          shown.append(
            Shown(trace: JSONValue.object(taken.snapshot.traceFields()).text, events: taken.events))
        }
        shared.viewFinished(i)
        results.set(i, shown)
        group.leave()
      }.start()
    }
    guard group.wait(timeout: .now() + 60) == .success else { return nil }
    return (results.all, shared)
  }

  @Test("every view gets what a simulation of its own shows it; one step per tick, few kept")
  func sameAsAlone() throws {
    let reference = Self.alone()
    // Something happens: B sees A's model and peer sphere, C gets the model late.
    #expect(reference[1].last?.trace.contains("\"m\"") == true)
    #expect(reference[2].flatMap(\.events).contains { $0.name == "received-models" })
    let (shown, shared) = try #require(Self.together([0, 1, 2]))
    for i in 0..<3 { #expect(shown[i] == reference[i], "view \(i)") }
    #expect(shared.steppedTickCount == Self.ticks)
    #expect(shared.mostTicksKept <= SharedCollaborationSimulation.window + 1)
    #expect(shared.mostTicksKept >= 1)
  }

  @Test("a view that ends early does not hold the others back; a view alone runs alone")
  func viewEndsEarly() throws {
    let reference = Self.alone()
    let (shown, shared) = try #require(Self.together([0, 2], lastTick: [0: 10]))
    #expect(shown[0] == Array(reference[0].prefix(11)))
    #expect(shown[2] == reference[2])
    #expect(shared.steppedTickCount == Self.ticks)
    let (single, _) = try #require(Self.together([1]))
    #expect(single[1] == reference[1])
  }

  @Test("messages.jsonl from the shared simulation equals one simulated on its own")
  func sharedOutputs() throws {
    let (_, shared) = try #require(Self.together([0, 1, 2]))
    let times = (0..<Self.ticks).map { Self.time($0).t }
    let fromRun = try shared.sharedOutputs(tickTimes: times)
    let configuration = CollaborationConfiguration(scene: Self.scene, views: Self.views)
    let own = try configuration.sharedOutputs(tickTimes: times, sceneViewport: .landscape)
    #expect(fromRun.map(\.name) == ["messages.jsonl"])
    #expect(fromRun.map(\.bytes) == own.map(\.bytes))
    #expect((fromRun.first?.bytes.count ?? 0) > 1000)
    // Fewer ticks than were stepped (a run that wrote no frame): simulated on its own.
    let none = try shared.sharedOutputs(tickTimes: [])
    #expect(none.first?.bytes == [])
  }
}

/// Per-view results set from the views' threads.
private final class Collected: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [Int: [SharedSimulationTests.Shown]] = [:]
  func set(_ i: Int, _ shown: [SharedSimulationTests.Shown]) { lock.withLock { values[i] = shown } }
  var all: [Int: [SharedSimulationTests.Shown]] { lock.withLock { values } }
}
