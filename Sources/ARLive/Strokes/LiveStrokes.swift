import ARFormats
import ARSession
import ARSupport
import Foundation

/// The live strokes of one run: the listening port, the inbox, and which AR tick first showed
/// a sphere of each delivered message (for the latency report).
public final class LiveStrokes: @unchecked Sendable {  // `firstSphereTick` under `lock`
  /// The inbox the port fills.
  public let inbox: LiveStrokeInbox
  /// The listener (its `endpoint` has the actual port).
  public let listener: LiveStrokeListener
  private let lock = NSLock()
  private var firstSphereTicks: [Int: Int] = [:]

  /// Binds the strokes port; the inbox's clock starts with `begin(at:)`.
  /// - Throws: `LiveError` `.addressInUse`, `.system`.
  public init(endpoint: LoopbackEndpoint) throws(LiveError) {
    inbox = LiveStrokeInbox(start: nil)
    listener = try LiveStrokeListener(endpoint: endpoint, inbox: inbox)
  }

  /// The AR tick that first placed a sphere of delivered message `index` (0-based).
  public func firstSphereTick(ofMessage index: Int) -> Int? {
    lock.withLock { firstSphereTicks[index] }
  }

  func recordSpheres(messages: [Int], tick: Int) {
    lock.withLock {
      for index in messages where firstSphereTicks[index] == nil { firstSphereTicks[index] = tick }
    }
  }
}

/// A scene session fed by the strokes port instead of its recorded log: `base`'s session made
/// on a `LiveStrokeSource` (`LiveMessageConfiguration`), any kind's that takes live messages.
public struct LiveFedConfiguration: SessionConfiguration {
  /// The configuration whose session takes the live messages.
  public var base: any LiveMessageConfiguration
  /// The live strokes.
  public var strokes: LiveStrokes
  /// The run's wall clock.
  public var pacer: LivePacer

  /// Creates a configuration.
  public init(base: any LiveMessageConfiguration, strokes: LiveStrokes, pacer: LivePacer) {
    self.base = base
    self.strokes = strokes
    self.pacer = pacer
  }

  /// `base`'s session reading the strokes port, for one run.
  public func makeSession(_ setup: SessionSetup) throws -> any Session {
    let source = LiveStrokeSource(inbox: strokes.inbox, pacer: pacer)
    let strokes = self.strokes
    let inner = try base.makeSession(
      setup,
      live: LiveMessages(source: source) { messages, tick in
        strokes.recordSpheres(messages: messages, tick: tick)
      })
    return LiveFedSession(inner: inner, source: source)
  }
}

/// A session on a live source: the port's connection notes become `live-strokes` events after
/// the session's own.
final class LiveFedSession: Session {
  let inner: any Session
  let source: LiveStrokeSource

  init(inner: any Session, source: LiveStrokeSource) {
    self.inner = inner
    self.source = source
  }

  func update(_ context: inout TickContext) {
    inner.update(&context)
    for note in source.pendingNotes {
      context.emit(
        "live-strokes", [("kind", .string(note.kind)), ("detail", .string(note.detail))])
    }
    source.pendingNotes.removeAll()
  }

  func traceFields() -> [(String, JSONValue)] { inner.traceFields() }

  func overlayText() -> [OverlayText] { inner.overlayText() }
}
