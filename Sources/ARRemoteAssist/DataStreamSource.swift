import ARFormats
import ARSession
import ARSupport

/// The remote-assist app's stroke channel through the session core's simulated network: an
/// Agora data stream created with `createDataStream(reliable: true, ordered: true)`
/// (SourceApps.md §2.2–2.3), from the helper to the broadcaster.
///
/// - Reliable and ordered: a lost transmission is sent again every `retransmissionInterval`
///   seconds, so a loss shows as a delay; a message still lost 5 s after it was sent is dropped
///   with a `stream-error` event at that moment (Agora's `didOccurStreamMessageError`
///   callback). A later message never overtakes an earlier one.
/// - Limits (`SendLimits.agoraDataStream`): at most 30 packets per second, 1 KB per packet and
///   6 KB per second per client. A send that breaks one is refused (the app ignores the error
///   code, so the message is lost) with a `stream-limit` event at its send time.
/// - A message that needed retransmissions gives a `stream-retransmitted` event when it
///   arrives (attempts, delay).
///
/// Every send is simulated when the source is made (the log is known in advance); the result
/// is deterministic for a seed. A message's `t` stays its send time (τ_draw of its last point).
public final class DataStreamSource: MessageSource {
  /// The stream's link.
  public struct Configuration: Hashable, Sendable {
    /// One-way latency, seconds (≥ 0).
    public var latency: Double = 0
    /// Extra uniform delay up to this much, seconds (≥ 0).
    public var jitter: Double = 0
    /// Probability that one transmission is lost, 0…1.
    public var loss: Double = 0
    /// Seconds between retransmissions of a lost packet (> 0).
    public var retransmissionInterval: Double = 0.1
    /// Seconds after the send when a reliable stream gives up (Agora: 5).
    public var giveUpAfter: Double = 5
    /// Seed of the delay and loss draws.
    public var seed: UInt64 = 0

    /// A lossless, instant stream.
    public init() {}
  }

  /// An event the stream raises at a replay time.
  public struct Notice: Sendable {
    /// When it is due, τ in integer microseconds.
    public var microseconds: Int64
    /// Event name (`stream-limit`, `stream-error`, `stream-retransmitted`).
    public var name: String
    /// Event fields.
    public var fields: [(String, JSONValue)]
  }

  private var arrivals: [(microseconds: Int64, message: StrokeMessage)] = []
  private var nextArrival = 0
  private var notices: [Notice] = []
  private var nextNotice = 0

  /// Sends every message of `messages` (in order, at its `t`; a time earlier than the previous
  /// send is sent with it) through a simulated data stream.
  public init(messages: [StrokeMessage], configuration: Configuration) {
    let link = NetworkLink(
      latencySeconds: configuration.latency, jitterSeconds: configuration.jitter,
      loss: configuration.loss,
      reliability: .reliable(
        retransmissionIntervalSeconds: configuration.retransmissionInterval,
        giveUpAfterSeconds: configuration.giveUpAfter))
    var network = SimulatedNetwork(
      configuration: .init(seed: configuration.seed, defaultLink: link, limits: .agoraDataStream))
    var lastSend = Int64.min
    var sent: [Int: StrokeMessage] = [:]
    for message in messages {
      let send = max(lastSend, ReplayTime.microseconds(message.t))
      lastSend = send
      let record = network.send(
        NetworkMessage(
          sender: "helper", destination: .channel("data-stream"), type: "stream-message",
          payload: message.data, sendMicroseconds: send),
        to: ["broadcaster"])
      let source = Self.source(message)
      if let failure = record.failure {
        notices.append(
          Notice(
            microseconds: send, name: "stream-limit",
            fields: [("reason", .string("send refused: \(failure)"))] + source))
        continue
      }
      sent[record.sequence] = message
      for outcome in record.outcomes {
        if outcome.dropReason != nil {
          let giveUp = send + ReplayTime.microseconds(configuration.giveUpAfter)
          notices.append(
            Notice(
              microseconds: giveUp, name: "stream-error",
              fields: [
                (
                  "reason",
                  .string(
                    "still lost after \(outcome.attempts) transmissions: the reliable stream "
                      + "gives up after \(configuration.giveUpAfter) s")
                )
              ] + source))
        } else if let arrival = outcome.arrivalMicroseconds, outcome.attempts > 1 {
          notices.append(
            Notice(
              microseconds: arrival, name: "stream-retransmitted",
              fields: [
                ("attempts", .integer(outcome.attempts)),
                ("delay", .number(ReplayTime.seconds(arrival - send))),
              ] + source))
        }
      }
    }
    for delivery in network.receive(for: "broadcaster", upTo: .max) {
      if let message = sent[delivery.sequence] {
        arrivals.append((delivery.arrivalMicroseconds, message))
      }
    }
    notices.sort { $0.microseconds < $1.microseconds }  // stable: send order within a time
  }

  /// Messages not yet delivered.
  public var remainingCount: Int { arrivals.count - nextArrival }

  /// The next message that has arrived by `microseconds`, in arrival order.
  public func nextMessage(dueBy microseconds: Int64) -> StrokeMessage? {
    guard nextArrival < arrivals.count, arrivals[nextArrival].microseconds <= microseconds
    else { return nil }
    defer { nextArrival += 1 }
    return arrivals[nextArrival].message
  }

  /// The stream's events due by `microseconds`, each returned once, in time order.
  public func notices(dueBy microseconds: Int64) -> [Notice] {
    var due: [Notice] = []
    while nextNotice < notices.count, notices[nextNotice].microseconds <= microseconds {
      due.append(notices[nextNotice])
      nextNotice += 1
    }
    return due
  }

  private static func source(_ message: StrokeMessage) -> [(String, JSONValue)] {
    let text = message.text
    return [
      ("line", .integer(message.line)),
      ("message", .string(text.count > 200 ? String(text.prefix(200)) + "…" : text)),
    ]
  }
}
