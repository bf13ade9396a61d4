import ARFormats
import ARRemoteAssist
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

/// The scene's `remoteAssist` session fed by the strokes port instead of its stroke log: same
/// receiver options (mode, points per frame), messages from a `LiveStrokeSource`.
public struct LiveRemoteAssistConfiguration: SessionConfiguration {
  /// The receiver's options (from the scene's section, or the app's defaults).
  public var receiver: RemoteAssistSession.Configuration
  /// The live strokes.
  public var strokes: LiveStrokes
  /// The run's wall clock.
  public var pacer: LivePacer

  /// Creates a configuration.
  public init(
    receiver: RemoteAssistSession.Configuration, strokes: LiveStrokes, pacer: LivePacer
  ) {
    self.receiver = receiver
    self.strokes = strokes
    self.pacer = pacer
  }

  /// A remote-assist session reading the strokes port, for one run.
  public func makeSession(_ setup: SessionSetup) throws -> any Session {
    let source = LiveStrokeSource(inbox: strokes.inbox, pacer: pacer)
    return LiveRemoteAssistSession(
      inner: RemoteAssistSession(source: source, configuration: receiver), source: source,
      strokes: strokes)
  }
}

/// A `RemoteAssistSession` on a live source: the port's connection notes become `live-strokes`
/// events, and each tick's placed spheres are recorded for the latency report.
final class LiveRemoteAssistSession: Session {
  let inner: RemoteAssistSession
  let source: LiveStrokeSource
  let strokes: LiveStrokes

  init(inner: RemoteAssistSession, source: LiveStrokeSource, strokes: LiveStrokes) {
    self.inner = inner
    self.source = source
    self.strokes = strokes
  }

  func update(_ context: inout TickContext) {
    inner.update(&context)
    for note in source.pendingNotes {
      context.emit(
        "live-strokes", [("kind", .string(note.kind)), ("detail", .string(note.detail))])
    }
    source.pendingNotes.removeAll()
    if !inner.placedMessageIndices.isEmpty {
      strokes.recordSpheres(messages: inner.placedMessageIndices, tick: context.tick)
    }
  }

  func traceFields() -> [(String, JSONValue)] { inner.traceFields() }

  func overlayText() -> [OverlayText] { inner.overlayText() }
}
