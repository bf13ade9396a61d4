import ARSupport

/// One participant's app state after one AR tick, as its view shows it (nodes, trace fields,
/// the peers named by the heads-up display). A value: views read it on their own threads
/// while the simulation goes on (`SharedCollaborationSimulation`).
struct ParticipantSnapshot: Sendable {
  /// The app state after the tick.
  var state: ParticipantState
  /// The tick's τ, seconds.
  var t: Double
  /// The tick's τ, µs (animations are sampled at it).
  var microseconds: Int64

  /// The participant's `collaboration` trace field: `{"state", "peers": [{"id",
  /// "translation"}], "models": [{"id", "usdz", "owner", "translation"}], "selected"?,
  /// "rooms"?}`, translations in `collabBase` space.
  func traceFields() -> [(String, JSONValue)] {
    func numbers(_ v: SIMD3<Float>) -> JSONValue {
      .numbers([Double(v.x), Double(v.y), Double(v.z)])
    }
    var fields: [(String, JSONValue)] = [("state", .string(state.phase.rawValue))]
    if state.phase == .room {
      fields.append(
        (
          "peers",
          .array(
            state.peers.map {
              .object([
                ("id", .string($0.id)),
                ("translation", numbers($0.transform.value(at: microseconds).translation)),
              ])
            })
        ))
      fields.append(
        (
          "models",
          .array(
            state.models.map {
              .object([
                ("id", .string($0.id)), ("usdz", .string($0.usdz)), ("owner", .string($0.owner)),
                ("translation", numbers($0.transform.value(at: microseconds).translation)),
              ])
            })
        ))
      if let selected = state.selected { fields.append(("selected", .string(selected))) }
    }
    if state.phase == .lobby {
      fields.append(("rooms", .array(state.rooms.map { .string($0.channelID) })))
    }
    return [("collaboration", .object(fields))]
  }
}
