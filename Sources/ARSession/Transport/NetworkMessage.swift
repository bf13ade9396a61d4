/// Where a message goes: to the members of a channel or to one peer (Agora RTM's channel and
/// peer-to-peer messages; a data stream is a channel).
public enum NetworkDestination: Hashable, Sendable {
  /// Every member of the channel at send time except the sender.
  case channel(String)
  /// One user, by id.
  case peer(String)
}

/// One message handed to the simulated network: who sends what, where and when.
///
/// The network never looks inside `payload`; `type` only labels the record (the app's message
/// type, e.g. RTM's raw-message description).
public struct NetworkMessage: Hashable, Sendable {
  /// The sender's user id.
  public var sender: String
  /// The channel or peer it is sent to.
  public var destination: NetworkDestination
  /// The application's message type, for records and events.
  public var type: String
  /// The bytes sent.
  public var payload: [UInt8]
  /// The size counted against `SendLimits`, in bytes (Agora RTM counts a raw message's data
  /// and description together; a data-stream packet is its payload).
  public var sizeBytes: Int
  /// Send time τ in integer microseconds of replay time (DESIGN §3).
  public var sendMicroseconds: Int64
  /// A notice the service sends on the user's behalf (RTM's member-joined and member-left
  /// callbacks): not the user's send call, so neither limited nor lost; it keeps its place in
  /// the sender's order (a member's last messages arrive before the notice that it left).
  public var isPresenceNotice: Bool

  /// Creates a message; `sizeBytes` defaults to the payload's length.
  public init(
    sender: String, destination: NetworkDestination, type: String, payload: [UInt8],
    sizeBytes: Int? = nil, sendMicroseconds: Int64, isPresenceNotice: Bool = false
  ) {
    self.isPresenceNotice = isPresenceNotice
    self.sender = sender
    self.destination = destination
    self.type = type
    self.payload = payload
    self.sizeBytes = sizeBytes ?? payload.count
    self.sendMicroseconds = sendMicroseconds
  }
}

/// A message arriving at one receiver.
public struct NetworkDelivery: Hashable, Sendable {
  /// The message as sent.
  public var message: NetworkMessage
  /// The receiving user's id.
  public var receiver: String
  /// Arrival time τ in integer microseconds.
  public var arrivalMicroseconds: Int64
  /// The message's index in send order over the whole network (0-based): the record it belongs
  /// to in `SimulatedNetwork.records`.
  public var sequence: Int
}
