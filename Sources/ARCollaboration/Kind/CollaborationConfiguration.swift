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
    CollaborationViewSession(scene: scene, views: views, index: 0, sceneViewport: .landscape)
  }

  /// The configuration rendering participant `index`'s view.
  public func view(_ index: Int, sceneViewport: Viewport) -> any SessionConfiguration {
    ViewConfiguration(scene: scene, views: views, index: index, sceneViewport: sceneViewport)
  }

  /// `messages.jsonl`: every message of the run (Documentation/Collaboration.md).
  public func sharedOutputs(tickTimes: [Double], sceneViewport: Viewport) throws -> [(
    name: String, bytes: [UInt8]
  )] {
    let simulation = CollaborationSimulation(scene: scene)
    for (tick, t) in tickTimes.enumerated() {
      simulation.step(
        tick: tick, t: t, microseconds: ReplayTime.microseconds(t),
        cameras: CollaborationViewSession.cameras(views, at: t, sceneViewport: sceneViewport))
    }
    var bytes: [UInt8] = []
    for record in simulation.network.records {
      bytes += Array(record.json.text.utf8)
      bytes.append(UInt8(ascii: "\n"))
    }
    return [("messages.jsonl", bytes)]
  }

  /// One participant's view.
  struct ViewConfiguration: SessionConfiguration {
    var scene: CollaborationScene
    var views: [ReplayView]
    var index: Int
    var sceneViewport: Viewport

    func makeSession(_ setup: SessionSetup) throws -> any Session {
      CollaborationViewSession(
        scene: scene, views: views, index: index, sceneViewport: sceneViewport)
    }
  }
}

/// The session of one participant's view: runs every participant's app (the whole
/// `CollaborationSimulation`) and shows participant `index`'s node graph, events and trace.
final class CollaborationViewSession: Session {
  let simulation: CollaborationSimulation
  let views: [ReplayView]
  let index: Int
  let sceneViewport: Viewport
  private var attached = false
  /// This view's camera at the latest tick (for the name tags).
  private var camera: Camera?

  init(scene: CollaborationScene, views: [ReplayView], index: Int, sceneViewport: Viewport) {
    simulation = CollaborationSimulation(scene: scene)
    self.views = views
    self.index = index
    self.sceneViewport = sceneViewport
  }

  /// Every participant's viewport camera at τ (nil outside a track that does not clamp).
  static func cameras(_ views: [ReplayView], at t: Double, sceneViewport: Viewport) -> [Matrix4?] {
    views.map { try? $0.worldFromViewportCamera(at: t, viewport: sceneViewport) }
  }

  func update(_ context: inout TickContext) {
    if !attached {
      context.root.addChildNode(simulation.roots[index])
      attached = true
    }
    simulation.step(
      tick: context.tick, t: context.t, microseconds: context.microseconds,
      cameras: Self.cameras(views, at: context.t, sceneViewport: sceneViewport))
    camera = context.camera
    for i in views.indices {
      let events = simulation.takeEvents(i)
      if i == index { context.events += events }
    }
  }

  func traceFields() -> [(String, JSONValue)] { simulation.traceFields(index) }

  /// ARSim's addition, not the app's (CollaboratAR shows no names): each peer's name (its
  /// participant id) centred 5 cm above its 0.15 m sphere, where this view's camera sees it;
  /// drawn only with `--hud` (Documentation/Watching.md).
  func overlayText() -> [OverlayText] {
    guard let camera else { return [] }
    let peers = Set(simulation.states[index].peers.map(\.id))
    var texts: [OverlayText] = []
    var pending = [simulation.roots[index]]
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
