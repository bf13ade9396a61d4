import ARFormats
import ARScene
import ARSession
import ARSupport

/// The remote-assist app's session kind: scene-file key `remoteAssist`,
/// `{"strokes": LOG.jsonl, "mode", "pointsPerFrame", "helper": {"view", "video", "videoLatency",
/// "dataLatency", "pointInterval"}}` (Documentation/SceneFile.md, StrokeLog.md), making a
/// `RemoteAssistSession` fed from the stroke log.
public struct RemoteAssistKind: SessionKind {
  /// The `remoteAssist` section.
  public struct Section: Decodable, Sendable {
    /// Stroke log (JSON Lines).
    public var strokes: String
    /// `faithful` (default), `corrected`, `screen` or `surface`.
    public var mode: String?
    /// Points per AR tick (default 1).
    public var pointsPerFrame: JSONInteger?
    /// The helper's screen and the delays (`HelperScreen`).
    public var helper: HelperSection?
    /// The data stream between helper and broadcaster (`DataStreamSource`); absent = messages
    /// arrive at `t` + the helper's data latency, nothing lost or limited.
    public var network: NetworkSection?
  }

  /// The `remoteAssist.network` section: the app's reliable, ordered data stream.
  public struct NetworkSection: Decodable, Sendable {
    /// One-way latency, seconds (default 0).
    public var latency: Double?
    /// Extra uniform delay up to this much, seconds (default 0).
    public var jitter: Double?
    /// Probability that one transmission is lost, 0…1 (default 0).
    public var loss: Double?
    /// Seconds between retransmissions of a lost packet (default 0.1).
    public var retransmissionInterval: Double?
    /// Seed of the delay and loss draws (default 0).
    public var seed: JSONInteger?
  }

  /// The `remoteAssist.helper` section.
  public struct HelperSection: Decodable, Sendable {
    /// `[width, height]` in UIKit points (default 390 × 844, a portrait iPhone).
    public var view: [Double]?
    /// `aspectFill` (default: Agora's `.hidden`, the app's) or `aspectFit`.
    public var video: String?
    /// Seconds from a broadcaster frame to the helper seeing it (default 0).
    public var videoLatency: Double?
    /// Seconds from the helper sending a message to the broadcaster receiving it (default 0).
    public var dataLatency: Double?
    /// Seconds between a message's points as drawn (default 1/60, one per pan event).
    public var pointInterval: Double?
  }

  /// The checked section: the stroke log's messages and the receiver's options.
  public struct Configuration: SessionConfiguration {
    /// The stroke log's messages, in file order.
    public var messages: [StrokeMessage]
    /// The receiver's options.
    public var configuration: RemoteAssistSession.Configuration
    /// The simulated data stream, when the scene has a `network` section.
    public var network: DataStreamSource.Configuration?

    /// Makes a `RemoteAssistSession` fed from the stroke log's messages.
    public func makeSession(_ setup: SessionSetup) throws -> any Session {
      if let network {
        return RemoteAssistSession(
          source: DataStreamSource(messages: messages, configuration: network),
          configuration: configuration)
      }
      // A message sent at τ_draw = t arrives at τ_arrive = t + data latency.
      let latency = configuration.helper.dataLatency
      return RemoteAssistSession(
        source: MessageList(messages) { ReplayTime.microseconds($0.t + latency) },
        configuration: configuration)
    }
  }

  /// Creates the kind.
  public init() {}

  /// `remoteAssist`.
  public var key: String { "remoteAssist" }

  /// The section's known keys (others become warnings).
  public var schema: [String: Set<String>] {
    [
      "remoteAssist": ["strokes", "mode", "pointsPerFrame", "helper", "network"],
      "remoteAssist.network": ["latency", "jitter", "loss", "retransmissionInterval", "seed"],
      "remoteAssist.helper": ["view", "video", "videoLatency", "dataLatency", "pointInterval"],
    ]
  }

  /// The largest latency accepted, seconds (a minute: beyond it no call is interactive).
  public static let maximumLatency = 60.0
  /// The largest helper view side accepted, UIKit points (real screens are under 1400).
  public static let maximumViewPoints = 100_000.0

  /// Checks `remoteAssist.helper`.
  /// - Throws: `InputError` for `view` (two numbers, each > 0 and ≤ 100 000), `video`, the
  ///   latencies (0…60 s) and `pointInterval` (0…1 s).
  static func helperScreen(_ section: HelperSection, in scene: SceneSection) throws
    -> HelperScreen
  {
    var helper = HelperScreen()
    if let view = section.view {
      guard view.count == 2, view.allSatisfy({ $0 > 0 && $0 <= maximumViewPoints }) else {
        throw scene.error(
          "remoteAssist.helper.view", "expected [width, height] in points, each 0 < side ≤ 100000")
      }
      helper.width = view[0]
      helper.height = view[1]
    }
    helper.contentMode =
      try scene.choice(
        section.video, VideoView.ContentMode.self, field: "remoteAssist.helper.video")
      ?? .aspectFill
    for (value, field) in [
      (section.videoLatency, "videoLatency"), (section.dataLatency, "dataLatency"),
    ] {
      if let value, !(value >= 0 && value <= maximumLatency) {
        throw scene.error("remoteAssist.helper.\(field)", "must be 0…60 seconds")
      }
    }
    helper.videoLatency = section.videoLatency ?? 0
    helper.dataLatency = section.dataLatency ?? 0
    if let interval = section.pointInterval {
      guard interval >= 0, interval <= 1 else {
        throw scene.error("remoteAssist.helper.pointInterval", "must be 0…1 seconds")
      }
      helper.pointInterval = interval
    }
    return helper
  }

  /// Reads the stroke log now (its warnings join the scene's).
  /// - Throws: the stroke log's located errors (`.missingInput` naming `remoteAssist.strokes`),
  ///   `InputError` for `remoteAssist.mode` and `remoteAssist.pointsPerFrame` (1…1000).
  public func configure(_ section: Section, in scene: inout SceneSection) throws
    -> any SessionConfiguration
  {
    let strokesPath = try scene.resolvePath(section.strokes, field: "remoteAssist.strokes")
    let log = try scene.reading(strokesPath, field: "remoteAssist.strokes") {
      try StrokeLog.read(path: strokesPath)
    }
    scene.warnings += log.warnings
    scene.inputPaths.append(strokesPath)
    var configuration = RemoteAssistSession.Configuration()
    configuration.mode =
      try scene.choice(section.mode, RemoteAssistMode.self, field: "remoteAssist.mode")
      ?? .faithful
    if let n = section.pointsPerFrame?.value {
      guard (1...1000).contains(n) else {
        throw scene.error("remoteAssist.pointsPerFrame", "must be 1…1000")
      }
      configuration.pointsPerFrame = n
    }
    if let helper = section.helper {
      configuration.helper = try Self.helperScreen(helper, in: scene)
    }
    var network: DataStreamSource.Configuration?
    if let networkSection = section.network {
      guard section.helper?.dataLatency == nil else {
        throw scene.error(
          "remoteAssist.helper.dataLatency",
          "give the stream's delay as remoteAssist.network.latency when a network is set")
      }
      network = try Self.dataStream(networkSection, in: scene)
    }
    return Configuration(messages: log.messages, configuration: configuration, network: network)
  }

  /// Checks `remoteAssist.network`.
  /// - Throws: `InputError` for `latency`, `jitter` (0…60 s), `loss` (0…1),
  ///   `retransmissionInterval` (0 < s ≤ 5) and `seed` (≥ 0).
  static func dataStream(_ section: NetworkSection, in scene: SceneSection) throws
    -> DataStreamSource.Configuration
  {
    var stream = DataStreamSource.Configuration()
    for (value, field) in [(section.latency, "latency"), (section.jitter, "jitter")] {
      if let value, !(value >= 0 && value <= maximumLatency) {
        throw scene.error("remoteAssist.network.\(field)", "must be 0…60 seconds")
      }
    }
    stream.latency = section.latency ?? 0
    stream.jitter = section.jitter ?? 0
    if let loss = section.loss {
      guard loss >= 0, loss <= 1 else {
        throw scene.error("remoteAssist.network.loss", "must be a probability 0…1")
      }
      stream.loss = loss
    }
    if let interval = section.retransmissionInterval {
      guard interval > 0, interval <= stream.giveUpAfter else {
        throw scene.error(
          "remoteAssist.network.retransmissionInterval", "must be more than 0 and at most 5 seconds"
        )
      }
      stream.retransmissionInterval = interval
    }
    if let seed = section.seed?.value {
      guard seed >= 0 else { throw scene.error("remoteAssist.network.seed", "must be ≥ 0") }
      stream.seed = UInt64(seed)
    }
    return stream
  }
}
