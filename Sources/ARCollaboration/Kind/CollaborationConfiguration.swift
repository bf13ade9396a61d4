import ARMath
import ARScene
import ARSession
import ARSupport

/// A checked `collaboration` section: the scene and one view per participant.
public struct CollaborationConfiguration: MultiViewConfiguration {
  /// The session.
  public var scene: CollaborationScene
  /// One view per participant, in participant order.
  public var views: [ReplayView]

  /// Creates a configuration.
  public init(scene: CollaborationScene, views: [ReplayView]) {
    self.scene = scene
    self.views = views
  }

  /// Without a view chosen, the session renders the first participant's.
  public func makeSession(_ setup: SessionSetup) throws -> any Session {
    try view(0, sceneViewport: .landscape).makeSession(setup)
  }

  /// The configuration rendering participant `index`'s view alone (its session simulates
  /// every participant).
  public func view(_ index: Int, sceneViewport: Viewport) -> any SessionConfiguration {
    ViewConfiguration(
      scene: scene, views: views, index: index, sceneViewport: sceneViewport, run: nil)
  }

  /// The views `indices` of one run, sharing one simulation (`SharedCollaborationSimulation`),
  /// which also makes `messages.jsonl`.
  public func makeRun(views indices: [Int], sceneViewport: Viewport) -> any MultiViewRun {
    SharedCollaborationSimulation(
      scene: scene, views: views, indices: indices, sceneViewport: sceneViewport)
  }

  /// `messages.jsonl`: every message of the run (Documentation/Collaboration.md).
  public func sharedOutputs(tickTimes: [Double], sceneViewport: Viewport) throws -> [(
    name: String, bytes: [UInt8]
  )] {
    Self.sharedOutputs(
      scene: scene, views: views, tickTimes: tickTimes, sceneViewport: sceneViewport)
  }

  /// `messages.jsonl` of a simulation of its own over `tickTimes`.
  static func sharedOutputs(
    scene: CollaborationScene, views: [ReplayView], tickTimes: [Double], sceneViewport: Viewport
  ) -> [(name: String, bytes: [UInt8])] {
    let simulation = CollaborationSimulation(scene: scene)
    let cameras = ViewAppCameras(views: views, sceneViewport: sceneViewport)
    for (tick, t) in tickTimes.enumerated() {
      simulation.step(
        tick: tick, t: t, microseconds: ReplayTime.microseconds(t),
        cameras: cameras.worldFromCamera(tick: tick, t: t))
    }
    return [("messages.jsonl", messagesJSONL(simulation.network))]
  }

  /// The network's records, one JSON line each, in send order.
  static func messagesJSONL(_ network: SimulatedNetwork) -> [UInt8] {
    var bytes: [UInt8] = []
    for record in network.records {
      bytes += Array(record.json.text.utf8)
      bytes.append(UInt8(ascii: "\n"))
    }
    return bytes
  }

  /// One participant's view: in a run, its session takes its snapshots from the run's shared
  /// simulation; alone (`run` nil), each session makes a simulation of its own.
  struct ViewConfiguration: SessionConfiguration {
    var scene: CollaborationScene
    var views: [ReplayView]
    var index: Int
    var sceneViewport: Viewport
    var run: SharedCollaborationSimulation?

    func makeSession(_ setup: SessionSetup) throws -> any Session {
      let simulation =
        run
        ?? SharedCollaborationSimulation(
          scene: scene, views: views, indices: [index], sceneViewport: sceneViewport)
      return CollaborationViewSession(simulation: simulation, index: index)
    }
  }
}

/// The session of one participant's view: shows participant `index`'s node graph, events and
/// trace from the shared simulation's snapshot of each tick.
final class CollaborationViewSession: Session {
  let simulation: SharedCollaborationSimulation
  let index: Int
  /// The participant's nodes, under the scene's root.
  private let holder = Node()
  private var attached = false
  /// The participant's state at the latest tick.
  private var snapshot: ParticipantSnapshot?
  /// This view's camera at the latest tick (for the name tags).
  private var camera: Camera?

  init(simulation: SharedCollaborationSimulation, index: Int) {
    self.simulation = simulation
    self.index = index
  }

  func update(_ context: inout TickContext) {
    if !attached {
      context.root.addChildNode(holder)
      attached = true
    }
    let tick = simulation.take(
      view: index, tick: context.tick, t: context.t, microseconds: context.microseconds)
    for child in holder.childNodes { child.removeFromParentNode() }
    for node in tick.snapshot.makeNodes(assets: simulation.scene.assets) {
      holder.addChildNode(node)
    }
    snapshot = tick.snapshot
    camera = context.camera
    context.events += tick.events
  }

  func traceFields() -> [(String, JSONValue)] { snapshot?.traceFields() ?? [] }

  /// ARSim's addition, not the app's (CollaboratAR shows no names): each peer's name (its
  /// participant id) centred 5 cm above its 0.15 m sphere, where this view's camera sees it;
  /// drawn only with `--hud` (Documentation/Watching.md).
  func overlayText() -> [OverlayText] {
    guard let camera, let snapshot else { return [] }
    let peers = Set(snapshot.state.peers.map(\.id))
    var texts: [OverlayText] = []
    var pending = [holder]
    while let node = pending.popLast() {
      pending += node.childNodes
      guard let name = node.name, peers.contains(name) else { continue }
      let top =
        node.worldTransform.translation
        + Vector3(0, CollaborationSimulation.peerRadius + 0.05, 0)
      guard let p = camera.project(world: top),
        p.u > -50, p.v > -50, p.u < Double(camera.intrinsics.width) + 50,
        p.v < Double(camera.intrinsics.height) + 50
      else { continue }
      texts.append(
        OverlayText(source: "collaboration", lines: [name], placement: .point(u: p.u, v: p.v)))
    }
    return texts.sorted { $0.lines[0] < $1.lines[0] }
  }
}
