import ARMath
import ARScene
import ARSession
import Foundation

/// One collaborative simulation for all the views of one run (and the run's `messages.jsonl`):
/// the first view to reach an AR tick steps every participant's app once, and each view takes
/// its own participant's snapshot and events of that tick.
///
/// The views run at the same time, one thread each (`MultiViewRun`). A tick's snapshots are
/// kept until every view still running has taken its own, and a view more than `window` ticks
/// ahead of the slowest one waits for it, so what is kept is bounded by the window, not by
/// the length of the run. The bytes a view writes do not depend on who stepped which tick:
/// every view presents the same tick times (the scene's schedule).
final class SharedCollaborationSimulation: MultiViewRun, @unchecked Sendable {
  /// What a view takes at one tick.
  struct Tick: Sendable {
    /// Its participant's state after the tick.
    var snapshot: ParticipantSnapshot
    /// The events its participant raised during the tick, in order.
    var events: [Event]
  }

  /// How many ticks a view may run ahead of the slowest view still running.
  static let window = 8

  let scene: CollaborationScene
  let views: [ReplayView]
  let sceneViewport: Viewport

  // Everything below is guarded by `condition`.
  private let condition = NSCondition()
  private let simulation: CollaborationSimulation
  /// What each participant's app sees as its camera (the tracker's estimate with a `tracking`
  /// section), stepped with the simulation.
  private let appCameras: ViewAppCameras
  /// Per view still running (by participant index): the last tick it took, −1 before its first.
  private var positions: [Int: Int]
  /// The ticks not yet taken by every running view: tick `firstKept + k` is `kept[k]`, one
  /// entry per view that had not finished when it was stepped.
  private var kept: [[Int: Tick]] = []
  private var firstKept = 0
  /// τ of every tick stepped so far, in order.
  private var steppedTimes: [Double] = []
  /// The most ticks kept at once (at most `window` + 1).
  private var mostKept = 0

  /// A simulation for the views of participants `indices` (each < `views.count`).
  init(scene: CollaborationScene, views: [ReplayView], indices: [Int], sceneViewport: Viewport) {
    self.scene = scene
    self.views = views
    self.sceneViewport = sceneViewport
    simulation = CollaborationSimulation(scene: scene)
    appCameras = ViewAppCameras(views: views, sceneViewport: sceneViewport)
    positions = Dictionary(uniqueKeysWithValues: indices.map { ($0, -1) })
  }

  /// Participant `index`'s snapshot and events of AR tick `tick` (at τ = `t` seconds, `microseconds`
  /// µs), stepping the simulation when this view is the first to reach it; waits while this
  /// view is more than `window` ticks ahead of the slowest running view.
  /// - Precondition: view `index` belongs to this run, has not finished, and took tick
  ///   `tick − 1` last (ticks are taken in order from 0).
  func take(view index: Int, tick: Int, t: Double, microseconds: Int64) -> Tick {
    condition.lock()
    defer { condition.unlock() }
    precondition(positions[index] == tick - 1, "view \(index) takes tick \(tick) out of order")
    while tick >= firstKept + kept.count {
      let slowest = positions.values.min() ?? tick - 1
      if tick - slowest <= Self.window {
        step(tick: tick, t: t, microseconds: microseconds)
      } else {
        condition.wait()
      }
    }
    let slot = tick - firstKept
    guard let taken = kept[slot][index] else {
      preconditionFailure("tick \(tick) was stepped without view \(index)")
    }
    kept[slot][index] = nil
    positions[index] = tick
    dropTakenTicks()
    condition.broadcast()
    return taken
  }

  func view(_ index: Int) -> any SessionConfiguration {
    CollaborationConfiguration.ViewConfiguration(
      scene: scene, views: views, index: index, sceneViewport: sceneViewport, run: self)
  }

  func viewFinished(_ index: Int) {
    condition.lock()
    defer { condition.unlock() }
    positions[index] = nil
    dropTakenTicks()
    condition.broadcast()
  }

  /// `messages.jsonl`: this simulation's records when it stepped exactly the ticks asked for
  /// (the views' ticks up to the last frame written); otherwise (a run that wrote no frame) a
  /// simulation of its own over `tickTimes`.
  func sharedOutputs(tickTimes: [Double]) throws -> [(name: String, bytes: [UInt8])] {
    condition.lock()
    defer { condition.unlock() }
    guard tickTimes == steppedTimes else {
      return CollaborationConfiguration.sharedOutputs(
        scene: scene, views: views, tickTimes: tickTimes, sceneViewport: sceneViewport)
    }
    return [("messages.jsonl", CollaborationConfiguration.messagesJSONL(simulation.network))]
  }

  /// Steps every participant once and keeps the tick for the views still running.
  private func step(tick: Int, t: Double, microseconds: Int64) {
    simulation.step(
      tick: tick, t: t, microseconds: microseconds,
      cameras: appCameras.worldFromCamera(tick: tick, t: t))
    var taken: [Int: Tick] = [:]
    for i in scene.participants.indices {
      // Every participant's events are taken so that none pile up.
      let events = simulation.takeEvents(i)
      if positions[i] != nil {
        taken[i] = Tick(snapshot: simulation.snapshot(i), events: events)
      }
    }
    kept.append(taken)
    steppedTimes.append(t)
    mostKept = max(mostKept, kept.count)
  }

  /// Ticks stepped so far.
  var steppedTickCount: Int { condition.withLock { steppedTimes.count } }
  /// The most ticks kept at once so far.
  var mostTicksKept: Int { condition.withLock { mostKept } }

  /// Forgets the ticks every running view has taken.
  private func dropTakenTicks() {
    let slowest = positions.values.min() ?? firstKept + kept.count - 1
    let drop = min(max(slowest - firstKept + 1, 0), kept.count)
    guard drop > 0 else { return }
    kept.removeFirst(drop)
    firstKept += drop
  }
}
