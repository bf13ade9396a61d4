import ARFormats

/// Messages arriving live (a loopback socket: `arsim stream --strokes-port`, `render
/// --strokes-port`) for a session that otherwise reads them from the scene's recorded log. The
/// live run feeds the first of the scene's sessions whose configuration takes them
/// (`SessionConfiguration.liveMessageConfiguration`), or adds the first registered kind's
/// default (`SessionKind.liveMessageDefault`); it names no kind.
public struct LiveMessages {
  /// The messages that have arrived by each tick's wall-clock time.
  public let source: any MessageSource<StrokeMessage>
  /// Tells the run which delivered messages (0-based, in delivery order) first showed on screen
  /// at AR tick `tick`, for its latency report.
  public let shown: (_ messages: [Int], _ tick: Int) -> Void

  /// Creates live messages.
  public init(
    source: any MessageSource<StrokeMessage>,
    shown: @escaping (_ messages: [Int], _ tick: Int) -> Void
  ) {
    self.source = source
    self.shown = shown
  }
}

/// A session configuration whose session can take its messages live instead of from the
/// scene's recorded log (the remote-assist receiver does; a user's kind may).
public protocol LiveMessageConfiguration: SessionConfiguration {
  /// Makes the session of one run fed from `live` (the recorded messages, if any, unused).
  /// - Throws: as `makeSession(_:)`.
  func makeSession(_ setup: SessionSetup, live: LiveMessages) throws -> any Session
}

extension LiveMessageConfiguration {
  /// Itself: it takes live messages.
  public var liveMessageConfiguration: (any LiveMessageConfiguration)? { self }
}
