/// The six kinds of message CollaboratAR sends, its `RawRTMMessageDataType` (seed 002;
/// SourceApps.md §4.1). The raw value travels as the `AgoraRtmRawMessage`'s description.
public enum RTMMessageType: String, Hashable, Sendable, CaseIterable {
  /// A room exists (`ChannelData`): to the lobby channel when created, or peer-to-peer to a
  /// user who just entered the lobby.
  case channelAvailable
  /// Asks every room member in the lobby to answer with `channelAvailable` (empty payload).
  case getSessionData
  /// One model created or moved (`ModelData`), to the room channel.
  case singleCollabModel
  /// Every model of the room (`[ModelData]`), peer-to-peer from the most senior member to a
  /// newcomer.
  case multiCollabModels
  /// A model was deleted (`ModelData`), to the room channel.
  case removeCollabModel
  /// A user's camera pose in `collabBase` space (`PeerData`), to the room channel every 0.3 s.
  case peerUpdate
}

/// The lobby channel's id: every device joins it for the globe (SourceApps.md §4.1).
public let lobbyChannelID = "lobby"
