import ARMath
import ARScene
import ARSession
import ARSupport

/// Every participant's CollaboratAR app, run together over one simulated network: join and
/// leave, the 0.3 s updates, seniority, model actions, and remote updates applied as the app
/// does. Deterministic and independent of rendering: one AR tick for all participants at a
/// time; each participant's view is drawn from a snapshot of its state after the tick
/// (`ParticipantSnapshot`: node graph in its own world, trace fields), so one simulation serves
/// every view (Documentation/Collaboration.md).
///
/// Within a tick, in participant order: presence changes (lobby, join, leave), then each
/// participant's arrivals (network and log, by arrival time), then the scene's actions due,
/// local move paths and the 0.3 s timers.
public final class CollaborationSimulation {
  /// The scene.
  public let scene: CollaborationScene
  /// The network (its `records` are `messages.jsonl`).
  public internal(set) var network: SimulatedNetwork

  var states: [ParticipantState]
  var pendingEvents: [[Event]]
  var nextAction = 0
  var roomCreated = false
  var tick = 0
  var t = 0.0
  var microseconds: Int64 = 0
  var cameras: [Matrix4?] = []

  /// The peer-update interval, µs (`Timer.scheduledTimer(timeInterval: 0.3, …)`).
  public static let updateIntervalMicroseconds: Int64 = 300_000
  /// `collabBase.position.y`, metres above the anchor.
  public static let collabBaseHeight = 0.05

  /// Creates the simulation at τ = 0 (nobody in yet).
  public init(scene: CollaborationScene) {
    self.scene = scene
    network = SimulatedNetwork(configuration: scene.network)
    states = scene.participants.map { p in
      let worldFromAnchor = p.anchor.worldFromAnchor
      return ParticipantState(
        color: p.color ?? ParticipantColor.random(id: p.id, seed: scene.seed),
        worldFromBase: worldFromAnchor * Matrix4(translation: Vector3(0, Self.collabBaseHeight, 0)),
        worldFromGlobeAnchor: (p.globeAnchor ?? p.anchor).worldFromAnchor)
    }
    pendingEvents = scene.participants.map { _ in [] }
    for (i, p) in scene.participants.enumerated() {
      for warning in p.messageLog?.warnings ?? [] {
        pendingEvents[i].append(
          Event(t: 0, tick: 0, name: "warning", fields: [("message", .string(warning))]))
      }
    }
  }

  /// The index of participant `id`.
  public func index(of id: String) -> Int? { scene.participants.firstIndex { $0.id == id } }

  /// Advances everybody by one AR tick.
  /// - Parameters:
  ///   - cameras: each participant's `worldFromCamera` at this tick in its own world (the
  ///     viewport camera, as RealityKit's `ARView.cameraTransform`), nil where it has no pose.
  public func step(tick: Int, t: Double, microseconds: Int64, cameras: [Matrix4?]) {
    self.tick = tick
    self.t = t
    self.microseconds = microseconds
    self.cameras = cameras
    for i in states.indices { updatePresence(i) }
    for i in states.indices { deliverArrivals(i) }
    runActions()
    for i in states.indices { followPaths(i) }
    for i in states.indices { fireTimer(i) }
  }

  /// Removes and returns the events participant `i` raised since the last call.
  public func takeEvents(_ i: Int) -> [Event] {
    defer { pendingEvents[i] = [] }
    return pendingEvents[i]
  }

  /// Participant `i`'s state after the latest tick, for its view.
  func snapshot(_ i: Int) -> ParticipantSnapshot {
    ParticipantSnapshot(state: states[i], t: t, microseconds: microseconds)
  }

  // MARK: Events and sending

  func emit(_ i: Int, _ name: String, _ fields: [(String, JSONValue)] = []) {
    pendingEvents[i].append(Event(t: t, tick: tick, name: name, fields: fields))
  }

  /// Ids of the members of `channel` now, in participant order.
  func members(of channel: String) -> [String] {
    zip(scene.participants, states).compactMap { participant, state in
      switch channel {
      case lobbyChannelID:
        // Every running app is in the lobby channel (it joins it at login), in a room or not.
        return state.phase == .lobby || state.phase == .room ? participant.id : nil
      case scene.room.channelID: return state.phase == .room ? participant.id : nil
      default: return nil
      }
    }
  }

  /// Sends an app message from participant `i`; a failed send is a `warning` event.
  /// - Returns: whether the send went out (its record has no `failure`).
  @discardableResult
  func send(
    from i: Int, to destination: NetworkDestination, type: String, payload: [UInt8],
    presence: Bool = false
  ) -> Bool {
    let sender = scene.participants[i].id
    let message = NetworkMessage(
      sender: sender, destination: destination, type: type, payload: payload,
      sizeBytes: payload.count + type.utf8.count, sendMicroseconds: microseconds,
      isPresenceNotice: presence)
    let record: NetworkRecord
    switch destination {
    case .channel(let channel):
      record = network.send(message, to: members(of: channel).filter { $0 != sender })
    case .peer(let peer):
      if let j = index(of: peer), states[j].phase == .lobby || states[j].phase == .room {
        record = network.send(message, to: [peer])
      } else {
        record = network.sendToAbsentPeer(message)
      }
    }
    if let failure = record.failure {
      emit(
        i, "warning",
        [
          ("message", .string("send of \(type) failed: \(failure)")),
          ("sequence", .integer(record.sequence)),
        ])
    }
    return record.failure == nil
  }

  /// Encodes and sends; an unencodable value (a non-finite number) is a warning, nothing sent.
  /// - Returns: whether the send went out.
  @discardableResult
  func send<Value: Encodable>(
    from i: Int, to destination: NetworkDestination, _ type: RTMMessageType, _ value: Value
  ) -> Bool {
    do {
      return send(
        from: i, to: destination, type: type.rawValue, payload: try RTMPayloadCoding.encode(value))
    } catch {
      emit(i, "warning", [("message", .string("\(type.rawValue) not sent: \(error)"))])
      return false
    }
  }
}
