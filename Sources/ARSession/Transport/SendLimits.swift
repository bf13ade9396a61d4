/// The limits a messaging SDK enforces on the sender; a send that breaks one fails (nothing is
/// delivered) as the SDK's send call would return an error.
public struct SendLimits: Hashable, Sendable {
  /// The largest message, in bytes (`NetworkMessage.sizeBytes`); nil = no limit.
  public var maximumMessageBytes: Int?
  /// Sliding-window rate limits per sender; every one must hold.
  public var rates: [RateLimit]

  /// At most `messages` sends and/or `bytes` bytes by one sender in any window of
  /// `windowSeconds` (the window ending at, and including, the send; failed sends do not count).
  public struct RateLimit: Hashable, Sendable {
    /// Accepted sends allowed per window; nil = not limited.
    public var messages: Int?
    /// Accepted bytes allowed per window; nil = not limited.
    public var bytes: Int?
    /// The window length, seconds.
    public var windowSeconds: Double

    /// Creates a rate limit.
    public init(messages: Int? = nil, bytes: Int? = nil, windowSeconds: Double) {
      self.messages = messages
      self.bytes = bytes
      self.windowSeconds = windowSeconds
    }
  }

  /// Creates limits.
  public init(maximumMessageBytes: Int? = nil, rates: [RateLimit] = []) {
    self.maximumMessageBytes = maximumMessageBytes
    self.rates = rates
  }

  /// No limits.
  public static let none = SendLimits()

  /// Agora RTM 1.x, the SDK CollaboratAR uses (`AgoraRtmKit`, `AgoraRtmRawMessage`):
  /// - a raw message's data and description together ≤ 32 KB, taken as 32 × 1024 bytes
  ///   (AgoraRtmRawMessage reference, api-ref.agora.io/en/signaling-sdk/ios/1.x/Classes/
  ///   AgoraRtmRawMessage.html); larger fails with `…InvalidMessage` ("null or exceeds 32 KB");
  /// - at most 180 send calls every 3 seconds, channel and peer messages together (the
  ///   `…TooOften` codes of AgoraRtmSendChannelMessageErrorCode and
  ///   AgoraRtmSendPeerMessageErrorCode, api-ref.agora.io/en/signaling-sdk/ios/1.x/
  ///   Constants/); the 2.x SDK states the same rate as 60 messages/s per client
  ///   (docs.agora.io/en/signaling/reference/limitations).
  public static let agoraRTM = SendLimits(
    maximumMessageBytes: 32 * 1024, rates: [RateLimit(messages: 180, windowSeconds: 3)])

  /// Agora RTC's data stream (`sendStreamMessage`, the remote-assist app's stroke channel): at
  /// most 30 packets per second of at most 1 KB each (taken as 1024 bytes) and 6 KB (6144 bytes)
  /// per second per client (SourceApps.md §2.3; Agora's `sendStreamMessage` reference).
  public static let agoraDataStream = SendLimits(
    maximumMessageBytes: 1024,
    rates: [
      RateLimit(messages: 30, windowSeconds: 1), RateLimit(bytes: 6 * 1024, windowSeconds: 1),
    ]
  )
}
