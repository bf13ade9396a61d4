/// One simulated network between users: per-link latency, jitter and loss from seeded draws,
/// the SDK's size and rate limits, per-link order kept, and a record of every message.
///
/// App-neutral: the caller resolves a channel to its members at send time and polls each
/// receiver's arrivals once per tick. Deterministic: the same sends in the same order give the
/// same arrivals, records and drops, whatever else runs. Times are integer microseconds of τ
/// (DESIGN §3), so no result depends on floating-point rounding of the clock.
///
/// Order: messages from one sender to one receiver arrive in send order (a later message never
/// overtakes an earlier one: its arrival is at least the previous one's). Arrivals at the same
/// microsecond come out in send order.
public struct SimulatedNetwork: Sendable {
  /// Links, limits and seed.
  public struct Configuration: Hashable, Sendable {
    /// Seed of every delay and loss draw.
    public var seed: UInt64
    /// The link used where `links` names none.
    public var defaultLink: NetworkLink
    /// Directed overrides, keyed by sender then receiver id.
    public var links: [String: [String: NetworkLink]]
    /// The SDK's limits, enforced per sender.
    public var limits: SendLimits

    /// Creates a configuration.
    public init(
      seed: UInt64 = 0, defaultLink: NetworkLink = .ideal,
      links: [String: [String: NetworkLink]] = [:], limits: SendLimits = .none
    ) {
      self.seed = seed
      self.defaultLink = defaultLink
      self.links = links
      self.limits = limits
    }

    /// The link from `sender` to `receiver`.
    public func link(from sender: String, to receiver: String) -> NetworkLink {
      links[sender]?[receiver] ?? defaultLink
    }
  }

  /// The configuration.
  public let configuration: Configuration
  /// Every message sent so far, in send order (`NetworkRecord.sequence` is the index).
  public private(set) var records: [NetworkRecord] = []

  /// The most transmission attempts a reliable link makes for one message.
  public static let maximumAttempts: UInt64 = 10_000

  private var pending: [String: [NetworkDelivery]] = [:]
  private var lastArrival: [String: [String: Int64]] = [:]
  private var linkCounts: [String: [String: UInt64]] = [:]
  private var accepted: [String: [(microseconds: Int64, bytes: Int)]] = [:]

  /// Creates an empty network.
  public init(configuration: Configuration) {
    self.configuration = configuration
  }

  /// Sends `message` to `receivers` (the channel's members other than the sender, or the one
  /// peer; the caller resolves them at send time).
  ///
  /// A message over a limit fails as a whole (`NetworkRecord.failure`; nothing is delivered and
  /// it does not count against later rate windows). Otherwise each receiver gets an arrival or
  /// a drop reason from its link.
  /// - Precondition: sends come in non-decreasing `sendMicroseconds`.
  /// - Returns: the new record (also appended to `records`).
  /// - Complexity: O(receivers · attempts) plus O(w) for the rate windows, w the sends in the
  ///   longest window.
  @discardableResult
  public mutating func send(_ message: NetworkMessage, to receivers: [String]) -> NetworkRecord {
    let sequence = records.count
    if let last = records.last {
      precondition(
        message.sendMicroseconds >= last.message.sendMicroseconds, "sends must not go back in time")
    }
    if !message.isPresenceNotice, let failure = limitFailure(message) {
      let record = NetworkRecord(
        message: message, sequence: sequence, failure: failure, outcomes: [])
      records.append(record)
      return record
    }
    if !message.isPresenceNotice {
      accepted[message.sender, default: []].append((message.sendMicroseconds, message.sizeBytes))
    }
    var outcomes: [NetworkRecord.Outcome] = []
    for receiver in receivers {
      var outcome = transmit(message, to: receiver)
      if let arrival = outcome.arrivalMicroseconds {
        let floor = lastArrival[message.sender]?[receiver] ?? Int64.min
        let kept = max(arrival, floor)
        outcome.arrivalMicroseconds = kept
        lastArrival[message.sender, default: [:]][receiver] = kept
        pending[receiver, default: []].append(
          NetworkDelivery(
            message: message, receiver: receiver, arrivalMicroseconds: kept, sequence: sequence))
      }
      outcomes.append(outcome)
    }
    let record = NetworkRecord(
      message: message, sequence: sequence, failure: nil, outcomes: outcomes)
    records.append(record)
    return record
  }

  /// Records a send to a peer that is not there: accepted by the SDK (it counts against the
  /// rate), dropped as `noSuchReceiver`.
  @discardableResult
  public mutating func sendToAbsentPeer(_ message: NetworkMessage) -> NetworkRecord {
    var record = send(message, to: [])
    if record.failure == nil, case .peer(let peer) = message.destination {
      record.outcomes = [
        .init(receiver: peer, arrivalMicroseconds: nil, dropReason: .noSuchReceiver, attempts: 0)
      ]
      records[record.sequence] = record
    }
    return record
  }

  /// Removes and returns the messages that have arrived at `receiver` by `microseconds`
  /// (inclusive), in arrival order; equal arrivals in send order.
  /// - Complexity: O(p log p) in the receiver's pending messages.
  public mutating func receive(for receiver: String, upTo microseconds: Int64) -> [NetworkDelivery]
  {
    guard var queue = pending[receiver], !queue.isEmpty else { return [] }
    queue.sort { ($0.arrivalMicroseconds, $0.sequence) < ($1.arrivalMicroseconds, $1.sequence) }
    let due = queue.prefix { $0.arrivalMicroseconds <= microseconds }
    pending[receiver] = Array(queue.dropFirst(due.count))
    return Array(due)
  }

  /// Drops every message still on its way to `receiver` (it left): each record's outcome for it
  /// becomes `receiverLeft`.
  public mutating func removeReceiver(_ receiver: String) {
    guard let queue = pending.removeValue(forKey: receiver) else { return }
    for delivery in queue {
      var record = records[delivery.sequence]
      for index in record.outcomes.indices where record.outcomes[index].receiver == receiver {
        record.outcomes[index].arrivalMicroseconds = nil
        record.outcomes[index].dropReason = .receiverLeft
      }
      records[delivery.sequence] = record
    }
  }

  /// The first limit `message` breaks, if any.
  private mutating func limitFailure(_ message: NetworkMessage) -> SendFailure? {
    let limits = configuration.limits
    if let maximum = limits.maximumMessageBytes, message.sizeBytes > maximum {
      return .tooLarge(bytes: message.sizeBytes, limit: maximum)
    }
    let history = accepted[message.sender] ?? []
    var longest: Int64 = 0
    for rate in limits.rates {
      let window = ReplayTime.microseconds(rate.windowSeconds)
      longest = max(longest, window)
      // The window (now − window, now] holds the earlier accepted sends still inside it.
      let inside = history.reversed().prefix { $0.microseconds > message.sendMicroseconds - window }
      if let count = rate.messages, inside.count + 1 > count {
        return .tooOften(limit: count, windowSeconds: rate.windowSeconds)
      }
      if let bytes = rate.bytes, inside.reduce(message.sizeBytes, { $0 + $1.bytes }) > bytes {
        return .tooManyBytes(limit: bytes, windowSeconds: rate.windowSeconds)
      }
    }
    // Forget sends that no window can see any more.
    accepted[message.sender] = history.filter {
      $0.microseconds > message.sendMicroseconds - longest
    }
    return nil
  }

  /// One receiver's attempts over its link.
  private mutating func transmit(_ message: NetworkMessage, to receiver: String)
    -> NetworkRecord.Outcome
  {
    let link = configuration.link(from: message.sender, to: receiver)
    let number = linkCounts[message.sender]?[receiver] ?? 0
    linkCounts[message.sender, default: [:]][receiver] = number + 1
    let draws = SeededDraws(seed: configuration.seed)
    let key = [message.sender, receiver]
    func lost(_ attempt: UInt64) -> Bool {
      !message.isPresenceNotice && link.loss > 0
        && draws.unit(key + ["loss"], [number, attempt]) < link.loss
    }
    func delay(_ attempt: UInt64) -> Int64 {
      let jitter = link.jitterSeconds * draws.unit(key + ["jitter"], [number, attempt])
      return ReplayTime.microseconds(link.latencySeconds + jitter)
    }
    switch link.reliability {
    case .unreliable:
      if lost(0) {
        return .init(receiver: receiver, arrivalMicroseconds: nil, dropReason: .lost, attempts: 1)
      }
      return .init(
        receiver: receiver, arrivalMicroseconds: message.sendMicroseconds + delay(0),
        dropReason: nil, attempts: 1)
    case .reliable(let interval, let giveUp):
      let step = max(1, ReplayTime.microseconds(interval))
      let limit = ReplayTime.microseconds(giveUp)
      var attempt: UInt64 = 0
      while lost(attempt) {
        attempt += 1
        // At most `maximumAttempts`, whatever the interval, so a loss of 1 stays bounded.
        if Int64(attempt) * step > limit || attempt >= Self.maximumAttempts {
          return .init(
            receiver: receiver, arrivalMicroseconds: nil, dropReason: .retransmissionTimeout,
            attempts: Int(attempt))
        }
      }
      return .init(
        receiver: receiver,
        arrivalMicroseconds: message.sendMicroseconds + Int64(attempt) * step + delay(attempt),
        dropReason: nil, attempts: Int(attempt) + 1)
    }
  }
}
