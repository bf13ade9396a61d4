import ARSupport
import Foundation

/// One message of a stroke log: the exact text a helper sent and when it arrives.
public struct StrokeMessage: Hashable, Sendable {
  /// Arrival time τ in seconds of replay time (DESIGN §3).
  public var t: Double
  /// The exact message bytes as sent (ASCII on the wire; other bytes are kept so the receiver
  /// can reject them as the app would).
  public var data: [UInt8]
  /// 1-based line in the log file; for messages received live, the line in the received log
  /// (`strokes-received.jsonl`); 0 for messages built in code.
  public var line: Int

  /// Creates a message from text.
  public init(t: Double, text: String, line: Int = 0) {
    self.t = t
    self.data = Array(text.utf8)
    self.line = line
  }

  /// Creates a message from raw bytes.
  public init(t: Double, data: [UInt8], line: Int = 0) {
    self.t = t
    self.data = data
    self.line = line
  }

  /// The message as text (invalid UTF-8 repaired; for display).
  public var text: String { String(decoding: data, as: UTF8.self) }
}

/// A stroke log: JSON Lines, one message per line, `{"t": <τ seconds>, "data": "<message>"}`
/// (documented in Documentation/StrokeLog.md). Blank lines are skipped.
public struct StrokeLog: Sendable {
  /// The messages in file order.
  public var messages: [StrokeMessage]
  /// Non-fatal findings (unknown fields, times out of order), each naming file and line.
  public var warnings: [String]

  /// Creates a log from messages.
  public init(messages: [StrokeMessage], warnings: [String] = []) {
    self.messages = messages
    self.warnings = warnings
  }

  /// The longest accepted line (bytes): Agora packets are ≤ 1 KB, so 1 MiB leaves room for
  /// escaping while refusing runaway input.
  public static let maximumLineBytes = 1 << 20

  /// The largest `|t|` accepted, in seconds (about 11.6 days, as Quick, Draw!'s 10⁹ ms; a
  /// scene's 10⁷ frames at 60 Hz last under 2 days): beyond it the microsecond clock would lose
  /// its meaning, so such a log is refused rather than replayed wrong.
  public static let maximumSeconds = 1e6

  /// Reads a stroke log.
  /// - Throws: `InputError` `.missingInput` when the file cannot be read; `.badData` naming
  ///   file, line and field for invalid JSON, a missing or non-numeric `t` (NaN/inf included),
  ///   a `t` beyond ±`maximumSeconds`, a missing or non-string `data`, or a line over `maximumLineBytes`.
  public static func read(path: String) throws -> StrokeLog {
    let bytes = try FileIO.read(path)
    return try parse(bytes, file: path)
  }

  /// Parses stroke-log bytes; `file` names the source in errors.
  /// - Throws: as `read(path:)`.
  public static func parse(_ bytes: [UInt8], file: String) throws -> StrokeLog {
    var messages: [StrokeMessage] = []
    var warnings: [String] = []
    var lineNumber = 0
    var previousT = -Double.infinity
    for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      lineNumber += 1
      var line = rawLine
      if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
      if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
      let location = InputLocation(file: file, line: lineNumber)
      guard line.count <= maximumLineBytes else {
        throw InputError(
          .badData, location, "line is \(line.count) bytes (limit \(maximumLineBytes))")
      }
      let entry: Entry
      do {
        entry = try JSONDecoder().decode(Entry.self, from: Data(line))
      } catch let error as DecodingError {
        throw JSONDecoding.locatedError(error, bytes: Array(line), file: file, line: lineNumber)
      }
      let t = entry.t
      guard t.isFinite else {
        throw InputError(
          .badData, InputLocation(file: file, line: lineNumber, field: "t"), "not finite")
      }
      guard abs(t) <= maximumSeconds else {
        throw InputError(
          .badData, InputLocation(file: file, line: lineNumber, field: "t"),
          "\(t) s is beyond ±\(maximumSeconds) s")
      }
      for key in entry.unknownKeys {
        warnings.append(
          "\(InputText.escaped(file)):\(lineNumber): unknown field \(InputText.quoted(key)) ignored"
        )
      }
      let data = entry.data
      if t < previousT {
        warnings.append(
          "\(InputText.escaped(file)):\(lineNumber): t \(t) is earlier than the previous message (\(previousT)); delivered in file order"
        )
      }
      previousT = max(previousT, t)
      messages.append(StrokeMessage(t: t, data: Array(data.utf8), line: lineNumber))
    }
    return StrokeLog(messages: messages, warnings: warnings)
  }

  /// The log as JSON Lines text (one `{"t":…,"data":…}` per message).
  public var jsonLines: String {
    messages.map {
      JSONValue.object([("t", .number($0.t)), ("data", .string($0.text))]).text + "\n"
    }.joined()
  }

  private struct Entry: Decodable {
    var t: Double
    var data: String
    var unknownKeys: [String]

    init(from decoder: Decoder) throws {
      let container = try decoder.container(keyedBy: JSONDecoding.AnyKey.self)
      t = try container.decode(Double.self, forKey: JSONDecoding.AnyKey("t"))
      data = try container.decode(String.self, forKey: JSONDecoding.AnyKey("data"))
      unknownKeys = container.allKeys.map(\.stringValue).filter { $0 != "t" && $0 != "data" }
        .sorted()
    }
  }
}
