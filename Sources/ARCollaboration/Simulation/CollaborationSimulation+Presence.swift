import ARMath
import ARSession
import ARSupport

extension CollaborationSimulation {
  /// Lobby entry, room join and leave of participant `i` due by this tick.
  func updatePresence(_ i: Int) {
    let participant = scene.participants[i]
    func due(_ seconds: Double?) -> Bool {
      guard let seconds else { return false }
      return ReplayTime.microseconds(seconds) <= microseconds
    }
    if states[i].phase == .absent, due(participant.lobbySeconds) {
      states[i].phase = .lobby
      emit(i, "lobby")
      // Entering the globe: ask every room for its data (empty payload).
      send(
        from: i, to: .channel(lobbyChannelID), type: RTMMessageType.getSessionData.rawValue,
        payload: [])
    }
    if states[i].phase == .absent || states[i].phase == .lobby, due(participant.joinSeconds) {
      join(i)
    }
    if states[i].phase == .room, due(participant.leaveSeconds) {
      leave(i)
    }
  }

  private func join(_ i: Int) {
    let id = scene.participants[i].id
    // getMembers: who is already in the room is more senior.
    states[i].moreSeniorMembers = members(of: scene.room.channelID)
    states[i].phase = .room
    states[i].rooms = []
    states[i].nextTimerMicroseconds = microseconds + Self.updateIntervalMicroseconds
    emit(
      i, "joined",
      [
        ("channel", .string(scene.room.channelID)),
        ("moreSeniorMembers", .array(states[i].moreSeniorMembers.map { .string($0) })),
      ])
    if !roomCreated {
      // The first to join creates the room and announces it on the globe.
      roomCreated = true
      send(from: i, to: .channel(lobbyChannelID), .channelAvailable, scene.room)
    }
    send(
      from: i, to: .channel(scene.room.channelID), type: "memberJoined", payload: Array(id.utf8),
      presence: true)
  }

  private func leave(_ i: Int) {
    let id = scene.participants[i].id
    send(
      from: i, to: .channel(scene.room.channelID), type: "memberLeft", payload: Array(id.utf8),
      presence: true)
    states[i].phase = .left
    states[i].models = []
    states[i].peers = []
    states[i].selected = nil
    states[i].paths = [:]
    states[i].nextTimerMicroseconds = .max
    network.removeReceiver(id)
    emit(i, "left", [("channel", .string(scene.room.channelID))])
  }
}
