import ARMath
import ARSession
import ARSupport

extension CollaborationSimulation {
  /// One arrived message, from the network or a log.
  struct Arrival {
    var microseconds: Int64
    var from: String
    var type: String
    var payload: [UInt8]
    /// `("sequence", n)` for network messages, `("line", n)` for log entries.
    var origin: (String, JSONValue)

    /// Its size as the SDK counts it: payload and description (type) bytes together.
    var sizeBytes: Int { payload.count + type.utf8.count }
  }

  /// Hands participant `i` everything that has arrived by this tick, by arrival time (network
  /// before log at equal times).
  func deliverArrivals(_ i: Int) {
    let id = scene.participants[i].id
    var arrivals = network.receive(for: id, upTo: microseconds).map {
      Arrival(
        microseconds: $0.arrivalMicroseconds, from: $0.message.sender, type: $0.message.type,
        payload: $0.message.payload, origin: ("sequence", .integer($0.sequence)))
    }
    if let log = scene.participants[i].messageLog {
      while states[i].nextLogEntry < log.entries.count {
        let entry = log.entries[states[i].nextLogEntry]
        let arrival = ReplayTime.microseconds(entry.t)
        guard arrival <= microseconds else { break }
        states[i].nextLogEntry += 1
        arrivals.append(
          Arrival(
            microseconds: arrival, from: entry.from, type: entry.type, payload: entry.payload,
            origin: ("line", .integer(entry.line))))
      }
    }
    // Stable: network arrivals (already ordered) stay before log entries at equal times.
    let ordered = arrivals.enumerated().sorted {
      ($0.element.microseconds, $0.offset) < ($1.element.microseconds, $1.offset)
    }
    for (_, arrival) in ordered { handle(arrival, at: i) }
  }

  private func warn(_ i: Int, _ arrival: Arrival, _ text: String) {
    emit(
      i, "warning",
      [
        ("message", .string(text)), ("type", .string(arrival.type)),
        ("from", .string(arrival.from)), arrival.origin,
      ])
  }

  private func decode<Value: Decodable>(_ type: Value.Type, _ arrival: Arrival, at i: Int) -> Value?
  {
    do {
      return try RTMPayloadCoding.decode(type, from: arrival.payload)
    } catch {
      // The app's `try!` would crash here.
      warn(i, arrival, "undecodable \(arrival.type) payload (\(error)); ignored")
      return nil
    }
  }

  /// The app's `handleIncomingMessage` plus RTM's member callbacks.
  func handle(_ arrival: Arrival, at i: Int) {
    if let limit = scene.network.limits.maximumMessageBytes, arrival.sizeBytes > limit {
      // Only a recorded log can hold one: the SDK fails such a send (`…InvalidMessage`), so no
      // device could have received it.
      warn(
        i, arrival,
        "recorded \(arrival.type.prefix(40)) message is \(arrival.sizeBytes) bytes, over the "
          + "SDK's \(limit)-byte limit, so it could not have been sent; dropped")
      return
    }
    let phase = states[i].phase
    switch arrival.type {
    case "memberJoined":
      // The most senior member (nobody older left) sends the newcomer every model; the event
      // says so only when the send went out (a failed one is a warning, as in messages.jsonl).
      guard phase == .room, states[i].moreSeniorMembers.isEmpty else { return }
      let models = states[i].models.map { modelData($0, at: i) }
      guard send(from: i, to: .peer(arrival.from), .multiCollabModels, models) else { return }
      emit(
        i, "sent-models",
        [("to", .string(arrival.from)), ("models", .array(models.map { .string($0.id) }))])
      return
    case "memberLeft":
      states[i].moreSeniorMembers.removeAll { $0 == arrival.from }
      if let p = states[i].peerIndex(arrival.from) {
        states[i].peers.remove(at: p)
        emit(i, "peer-removed", [("peer", .string(arrival.from))])
      }
      return
    default: break
    }
    guard let type = RTMMessageType(rawValue: arrival.type) else {
      warn(i, arrival, "unknown message type \(InputText.quoted(arrival.type)); ignored")
      return
    }
    switch type {
    case .channelAvailable:
      guard let channel = decode(ChannelData.self, arrival, at: i), phase == .lobby else { return }
      states[i].rooms.removeAll { $0.channelID == channel.channelID }
      states[i].rooms.append(channel)
      emit(i, "room-available", [("channel", .string(channel.channelID))])
    case .getSessionData:
      // A newcomer on the globe: room members answer it directly.
      guard phase == .room else { return }
      send(from: i, to: .peer(arrival.from), .channelAvailable, scene.room)
    case .singleCollabModel:
      guard let model = decode(ModelData.self, arrival, at: i), phase == .room else { return }
      update(models: [model], at: i)
    case .multiCollabModels:
      guard let models = decode([ModelData].self, arrival, at: i), phase == .room else { return }
      emit(
        i, "received-models",
        [("from", .string(arrival.from)), ("models", .array(models.map { .string($0.id) }))])
      update(models: models, at: i)
    case .removeCollabModel:
      guard let model = decode(ModelData.self, arrival, at: i), phase == .room else { return }
      if let m = states[i].modelIndex(model.id) {
        states[i].models.remove(at: m)
        if states[i].selected == model.id { states[i].selected = nil }
        states[i].paths[model.id] = nil
        emit(i, "model-removed", [("model", .string(model.id)), ("by", .string(arrival.from))])
      }
    case .peerUpdate:
      guard let peer = decode(PeerData.self, arrival, at: i), phase == .room else { return }
      guard peer.transform.isFinite, peer.colorVector.count >= 4 else {
        warn(
          i, arrival, "peerUpdate with a non-finite transform or under 4 colour components; ignored"
        )
        return
      }
      if let p = states[i].peerIndex(peer.rtmID) {
        states[i].peers[p].transform.applyRemoteUpdate(peer.transform, at: microseconds)
      } else {
        states[i].peers.append(
          Peer(
            id: peer.rtmID, color: Array(peer.colorVector.prefix(4)),
            transform: AnimatedTransform(peer.transform)))
        emit(i, "peer-added", [("peer", .string(peer.rtmID))])
      }
    }
  }

  /// The app's `update(with: [ModelData])`: update the existing entity (0.4 s move) or create it.
  func update(models: [ModelData], at i: Int) {
    for model in models {
      guard model.transform.isFinite else {
        emit(
          i, "warning",
          [
            (
              "message",
              .string("model \(InputText.quoted(model.id)) has a non-finite transform; ignored")
            )
          ]
        )
        continue
      }
      if let m = states[i].modelIndex(model.id) {
        states[i].models[m].transform.applyRemoteUpdate(model.transform, at: microseconds)
        states[i].models[m].owner = model.owner
      } else {
        states[i].models.append(
          CollabModel(
            id: model.id, usdz: model.usdz, owner: model.owner,
            transform: AnimatedTransform(model.transform)))
        emit(i, "model-added", [("model", .string(model.id)), ("owner", .string(model.owner))])
      }
    }
  }

  /// The `ModelData` participant `i` sends for `model`: the app builds it without an owner,
  /// so the owner is the sender (`owner ?? rtmID`).
  func modelData(_ model: CollabModel, at i: Int) -> ModelData {
    ModelData(
      id: model.id, usdz: model.usdz, transform: model.transform.value(at: microseconds),
      owner: scene.participants[i].id)
  }
}
