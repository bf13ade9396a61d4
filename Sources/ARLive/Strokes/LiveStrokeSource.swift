import ARFormats
import ARSession

/// The message source of a session fed live (`LiveMessages`): at each new AR tick it first
/// waits for the tick's wall-clock time (`LivePacer`), then takes the messages that arrived by
/// then from the inbox. Used from the scene thread only.
public final class LiveStrokeSource: MessageSource {
  private let inbox: LiveStrokeInbox
  private let pacer: LivePacer
  private var lastTick: Int64?
  private var due: [StrokeMessage] = []
  private var dueHead = 0
  /// Connection notes taken with the messages, for the session to emit as events.
  var pendingNotes: [LiveStrokeInbox.Note] = []
  /// Messages handed to the session so far (the session's delivery index of the next one).
  private(set) var deliveredCount = 0

  /// Creates a source.
  public init(inbox: LiveStrokeInbox, pacer: LivePacer) {
    self.inbox = inbox
    self.pacer = pacer
  }

  /// The next message arrived by τ = `microseconds`; the first call of a tick waits for its
  /// wall-clock time.
  public func nextMessage(dueBy microseconds: Int64) -> StrokeMessage? {
    if lastTick != microseconds {
      lastTick = microseconds
      // An interrupted wait returns early: the frame sink reports the interruption.
      try? pacer.wait(untilMicroseconds: microseconds)
      let taken = inbox.take(through: microseconds)
      due = taken.messages
      dueHead = 0
      pendingNotes += taken.notes
    }
    guard dueHead < due.count else { return nil }
    defer {
      dueHead += 1
      deliveredCount += 1
    }
    return due[dueHead]
  }
}
