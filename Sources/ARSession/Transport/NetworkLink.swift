/// How one directed link (sender → receiver) delays and loses messages.
///
/// Each message's one-way delay is `latency + U·jitter`, U uniform in [0, 1) from the network's
/// seeded draws; each transmission attempt is lost with probability `loss`. What a loss means
/// depends on `reliability`.
public struct NetworkLink: Hashable, Sendable {
  /// Fixed one-way delay, seconds (≥ 0).
  public var latencySeconds: Double
  /// Extra delay up to this much, uniformly distributed, seconds (≥ 0).
  public var jitterSeconds: Double
  /// Probability that one transmission attempt is lost, 0…1.
  public var loss: Double
  /// What happens to a lost attempt.
  public var reliability: Reliability

  /// What a lost attempt costs.
  public enum Reliability: Hashable, Sendable {
    /// The message is lost for this receiver (no retransmission).
    case unreliable
    /// The sender retransmits every `retransmissionIntervalSeconds` until an attempt gets
    /// through; when the next attempt would leave more than `giveUpAfterSeconds` after the send,
    /// the message is dropped for this receiver (a reliable stream's error).
    case reliable(retransmissionIntervalSeconds: Double, giveUpAfterSeconds: Double)
  }

  /// Creates a link.
  /// - Precondition: latency and jitter finite and ≥ 0; loss in 0…1 (scene loaders validate
  ///   input before it gets here).
  public init(
    latencySeconds: Double = 0, jitterSeconds: Double = 0, loss: Double = 0,
    reliability: Reliability = .unreliable
  ) {
    precondition(latencySeconds >= 0 && latencySeconds.isFinite, "latency must be ≥ 0")
    precondition(jitterSeconds >= 0 && jitterSeconds.isFinite, "jitter must be ≥ 0")
    precondition(loss >= 0 && loss <= 1, "loss must be in 0…1")
    self.latencySeconds = latencySeconds
    self.jitterSeconds = jitterSeconds
    self.loss = loss
    self.reliability = reliability
  }

  /// An instant, lossless link.
  public static let ideal = NetworkLink()
}
