import ARFormats
import ARSession
import ARSupport

/// The remote-assist app's session kind: scene-file key `remoteAssist`,
/// `{"strokes": LOG.jsonl, "mode", "pointsPerFrame"}` (Documentation/SceneFile.md), making a
/// `RemoteAssistSession` fed from the stroke log.
public struct RemoteAssistKind: SessionKind {
  /// The `remoteAssist` section.
  public struct Section: Decodable, Sendable {
    /// Stroke log (JSON Lines).
    public var strokes: String
    /// `faithful` (default) or `corrected`.
    public var mode: String?
    /// Points per AR tick (default 1).
    public var pointsPerFrame: JSONInteger?
  }

  /// The checked section: the stroke log's messages and the receiver's options.
  public struct Configuration: SessionConfiguration {
    /// The stroke log's messages, in file order.
    public var messages: [StrokeMessage]
    /// The receiver's options.
    public var configuration: RemoteAssistSession.Configuration

    /// Makes a `RemoteAssistSession` fed from the stroke log's messages.
    public func makeSession(_ setup: SessionSetup) throws -> any Session {
      RemoteAssistSession(messages: messages, configuration: configuration)
    }
  }

  /// Creates the kind.
  public init() {}

  /// `remoteAssist`.
  public var key: String { "remoteAssist" }

  /// The section's known keys (others become warnings).
  public var schema: [String: Set<String>] {
    ["remoteAssist": ["strokes", "mode", "pointsPerFrame"]]
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
    return Configuration(messages: log.messages, configuration: configuration)
  }
}
