import ARSession
import ARSupport

extension RemoteAssistKind.Configuration: LiveMessageConfiguration {
  /// A `RemoteAssistSession` reading `live` instead of the stroke log (same receiver options),
  /// telling the run which messages' spheres each tick placed.
  public func makeSession(_ setup: SessionSetup, live: LiveMessages) throws -> any Session {
    LiveRemoteAssistSession(
      inner: RemoteAssistSession(source: live.source, configuration: configuration), live: live)
  }
}

extension RemoteAssistKind {
  /// A receiver with the app's defaults, fed only from the strokes port.
  public var liveMessageDefault: (any LiveMessageConfiguration)? {
    Configuration(messages: [], configuration: RemoteAssistSession.Configuration(), network: nil)
  }
}

/// A `RemoteAssistSession` on live messages: each tick's placed spheres are reported to the
/// run (`LiveMessages.shown`) for the latency report.
final class LiveRemoteAssistSession: Session {
  let inner: RemoteAssistSession
  let live: LiveMessages

  init(inner: RemoteAssistSession, live: LiveMessages) {
    self.inner = inner
    self.live = live
  }

  func update(_ context: inout TickContext) {
    inner.update(&context)
    if !inner.placedMessageIndices.isEmpty {
      live.shown(inner.placedMessageIndices, context.tick)
    }
  }

  func traceFields() -> [(String, JSONValue)] { inner.traceFields() }

  func overlayText() -> [OverlayText] { inner.overlayText() }
}
