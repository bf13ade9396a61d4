import ARSupport
import Foundation

/// A recorded RTM message log for one participant: JSON Lines, one message per line,
///
///     {"t": 1.25, "from": "B", "channel": "room-1", "type": "peerUpdate", "payload": "{…}"}
///
/// `t` = arrival τ at the participant (seconds), `from` = sender's RTM id, exactly one of
/// `channel` (a channel message) or `peer` (peer-to-peer, the receiver's id), `type` = the raw
/// message's description, `payload` = the JSON text that was sent (`""` for `getSessionData`).
/// Blank lines are skipped (Documentation/Collaboration.md).
///
/// The app decodes with `try!` and crashes on bad input; ARSim never does: a line that is not a
/// JSON object, lacks a field, or has a wrong type or a bad `t` becomes a warning naming the
/// line and is skipped, and the rest of the log is replayed. Unknown types and undecodable
/// payloads are kept here and reported when the session handles them.
public struct RTMMessageLog: Hashable, Sendable {
  /// One logged message.
  public struct Entry: Hashable, Sendable {
    /// Arrival τ, seconds.
    public var t: Double
    /// The sender's RTM id.
    public var from: String
    /// A channel message's channel id, or nil for a peer-to-peer message.
    public var channel: String?
    /// A peer-to-peer message's receiver id, or nil for a channel message.
    public var peer: String?
    /// The message type as written (not necessarily one of `RTMMessageType`).
    public var type: String
    /// The payload bytes (the JSON text, UTF-8).
    public var payload: [UInt8]
    /// 1-based line in the file.
    public var line: Int
  }

  /// The messages, sorted by arrival (`t`; equal times in file order).
  public var entries: [Entry]
  /// Problems found while reading, each `file:line: reason` (field named when known).
  public var warnings: [String]

  /// The longest line read (1 MiB; an RTM message is at most 32 KB before JSON escaping).
  public static let maximumLineBytes = 1 << 20
  /// The largest accepted `t`, seconds (as stroke logs).
  public static let maximumSeconds = 1e6

  /// Parses log bytes; `file` names the source in warnings. Never throws: every problem is a
  /// warning.
  public static func parse(_ bytes: [UInt8], file: String) -> RTMMessageLog {
    var entries: [Entry] = []
    var warnings: [String] = []
    var lineNumber = 0
    for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      lineNumber += 1
      var line = rawLine
      if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
      if lineNumber == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
      if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
      let prefix = "\(InputText.escaped(file)):\(lineNumber)"
      guard line.count <= maximumLineBytes else {
        warnings.append(
          "\(prefix): line is \(line.count) bytes (limit \(maximumLineBytes)); skipped")
        continue
      }
      do {
        let raw = try JSONDecoder().decode(RawEntry.self, from: Data(line))
        if let problem = raw.problem {
          warnings.append("\(prefix): \(problem); skipped")
          continue
        }
        for key in raw.unknownKeys {
          warnings.append("\(prefix): unknown field \(InputText.quoted(key)) ignored")
        }
        entries.append(
          Entry(
            t: raw.t, from: raw.from, channel: raw.channel, peer: raw.peer, type: raw.type,
            payload: Array(raw.payload.utf8), line: lineNumber))
      } catch let error as DecodingError {
        warnings.append("\(prefix): \(RTMPayloadError(error)); skipped")
      } catch {
        warnings.append("\(prefix): unreadable line; skipped")
      }
    }
    // Arrival order; a stable sort keeps file order for equal times.
    let sorted = entries.enumerated().sorted {
      ($0.element.t, $0.offset) < ($1.element.t, $1.offset)
    }
    return RTMMessageLog(entries: sorted.map(\.element), warnings: warnings)
  }

  private struct RawEntry: Decodable {
    var t: Double
    var from: String
    var channel: String?
    var peer: String?
    var type: String
    var payload: String
    var unknownKeys: [String]
    var problem: String?

    struct Key: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(_ s: String) { stringValue = s }
      init?(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }

    static let known: Set<String> = ["t", "from", "channel", "peer", "type", "payload"]

    init(from decoder: Decoder) throws {
      let c = try decoder.container(keyedBy: Key.self)
      t = try c.decode(Double.self, forKey: Key("t"))
      from = try c.decode(String.self, forKey: Key("from"))
      channel = try c.decodeIfPresent(String.self, forKey: Key("channel"))
      peer = try c.decodeIfPresent(String.self, forKey: Key("peer"))
      type = try c.decode(String.self, forKey: Key("type"))
      payload = try c.decode(String.self, forKey: Key("payload"))
      unknownKeys = c.allKeys.map(\.stringValue).filter { !Self.known.contains($0) }.sorted()
      if !t.isFinite || t < 0 || t > RTMMessageLog.maximumSeconds {
        problem = "t: \(t) is not a time in 0…\(RTMMessageLog.maximumSeconds) s"
      } else if (channel == nil) == (peer == nil) {
        problem = "give exactly one of 'channel' and 'peer'"
      }
    }
  }
}
