import ARFormats
import ARSupport

/// One line of `events.jsonl` (DESIGN §7): `{"t": τ, "frame": i, "event": NAME, …fields}`.
public struct Event: Hashable, Sendable {
  /// Replay time τ in seconds of the tick that raised it.
  public var t: Double
  /// The AR tick index that raised it.
  public var tick: Int
  /// The event name (`warning`, `undo`, `color`, `dropped-point`, `hit`,
  /// `client-new-measurement`, …).
  public var name: String
  /// Further fields, in output order.
  public var fields: [(String, JSONValue)]

  /// Creates an event.
  public init(t: Double, tick: Int, name: String, fields: [(String, JSONValue)] = []) {
    self.t = t
    self.tick = tick
    self.name = name
    self.fields = fields
  }

  /// The JSON object for output frame `frame`.
  public func json(frame: Int) -> JSONValue {
    .object([("t", .number(t)), ("frame", .integer(frame)), ("event", .string(name))] + fields)
  }

  /// The one-line description of a warning (run.json's `firstWarning`, the console): by the
  /// convention every kind follows, a warning's first field is a string saying what happened
  /// (remote assist names it `reason`, collaboration `message`; a kind names its own); nil
  /// when the first field is not a string.
  public var summary: String? {
    if case .string(let text)? = fields.first?.1 { return text }
    return nil
  }

  /// Equal when the JSON objects (at frame 0) are equal.
  public static func == (a: Event, b: Event) -> Bool { a.json(frame: 0) == b.json(frame: 0) }
  /// Hashes the compact JSON text.
  public func hash(into hasher: inout Hasher) { hasher.combine(json(frame: 0)) }
}
