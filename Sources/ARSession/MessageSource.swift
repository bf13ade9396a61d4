/// Where a session's incoming messages come from: a pre-loaded file (`MessageList`), later a
/// live socket delivering at wall-clock ticks or a simulated transport between participants.
/// The session pulls, once per AR tick, the messages due by that tick, so the session's logic
/// does not depend on how messages travel.
///
/// Sources are used from the scene thread only, one session each.
public protocol MessageSource<Message>: AnyObject {
  /// The message type (e.g. `StrokeMessage`).
  associatedtype Message

  /// Removes and returns the next message that has arrived by replay time `microseconds` (τ in
  /// integer microseconds, as `TickContext.microseconds`), or nil when none is due yet. Messages
  /// come out in arrival order; a message is returned once.
  func nextMessage(dueBy microseconds: Int64) -> Message?
}

/// A message source over messages known in advance (a stroke log read from a file), each with
/// its arrival time; delivered in the given order, a message as soon as its time is due (so a
/// later-timed message holds back the ones after it, as a file replayed in order does).
public final class MessageList<Message>: MessageSource {
  private let messages: [Message]
  private let arrival: (Message) -> Int64
  private var next = 0

  /// Creates a source over `messages` (delivery order); `arrival` gives a message's arrival τ in
  /// integer microseconds.
  public init(_ messages: [Message], arrival: @escaping (Message) -> Int64) {
    self.messages = messages
    self.arrival = arrival
  }

  /// Messages not yet delivered.
  public var remainingCount: Int { messages.count - next }

  /// The next message in order when its arrival is at or before `microseconds`.
  public func nextMessage(dueBy microseconds: Int64) -> Message? {
    guard next < messages.count, arrival(messages[next]) <= microseconds else { return nil }
    defer { next += 1 }
    return messages[next]
  }
}
