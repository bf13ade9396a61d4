import ARMath

/// One participant's app state during a replay.
struct ParticipantState: Sendable {
  /// Where the app is.
  enum Phase: String, Sendable {
    /// Not started yet: nothing is shown, nothing sent.
    case absent
    /// The globe lobby.
    case lobby
    /// In the room (the collab scene).
    case room
    /// Left the room: its view shows the camera image only.
    case left
  }

  var phase: Phase = .absent
  /// `[r, g, b, a]`.
  var color: [Double]
  /// World from `collabBase` (anchor · T(0, 0.05, 0)), this participant's world.
  var worldFromBase: Matrix4
  /// World from the globe's anchor.
  var worldFromGlobeAnchor: Matrix4
  /// Members who were in the room when this one joined and are still there (the app's
  /// `moreSeniorMembers`), in join order.
  var moreSeniorMembers: [String] = []
  /// Next peer-update timer fire, µs.
  var nextTimerMicroseconds: Int64 = .max
  /// The selected model's id.
  var selected: String?
  /// Models under `collabBase`, in creation order.
  var models: [CollabModel] = []
  /// Peers under `collabBase`, in creation order.
  var peers: [Peer] = []
  /// Rooms shown on the globe, by channel id, in arrival order.
  var rooms: [ChannelData] = []
  /// The next entry of its message log.
  var nextLogEntry = 0
  /// Model paths being followed locally (owner's moves).
  var paths: [String: [ModelAction.Keyframe]] = [:]

  func modelIndex(_ id: String) -> Int? { models.firstIndex { $0.id == id } }
  func peerIndex(_ id: String) -> Int? { peers.firstIndex { $0.id == id } }
}

/// A shared model as one device holds it.
struct CollabModel: Sendable {
  var id: String
  var usdz: String
  var owner: String
  var transform: AnimatedTransform
}

/// Another participant as one device shows it (the app's `PeerEntity`).
struct Peer: Sendable {
  var id: String
  var color: [Double]
  var transform: AnimatedTransform
}
