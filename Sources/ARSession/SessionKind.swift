import ARScene
import ARSupport

/// A kind of session a scene file can ask for (a source app: `measure`, `displayers`,
/// `remoteAssist`, `collaboration`, or a user's own): its scene-file key, how its section is decoded and
/// checked, and how it makes its session. Registered in a `SessionRegistry`; the scene loader
/// and the frame loop know kinds only through it (Documentation/CustomSessions.md).
public protocol SessionKind: Sendable {
  /// The section's JSON shape, decoded with `JSONDecoder` from the value under `key`; decoding
  /// errors name `file:line:field` with field paths starting at `key` (`measure.switchTimes`).
  associatedtype Section: Decodable & Sendable

  /// The scene-file key of this kind's section (a top-level key, e.g. `measure`). A scene runs
  /// a session of this kind when the key is present and not null.
  var key: String { get }

  /// The known keys of every object in the section, by field path pattern from the scene's
  /// root (`[]` = any index), e.g. `["measure": ["switchTimes"]]`: other keys become "not a
  /// scene field" warnings. Default: no check.
  var schema: [String: Set<String>] { get }

  /// Checks the decoded section and resolves what it references (paths against the scene's
  /// folder, files read now so that bad input fails before any output is written).
  /// - Throws: `InputError`s made with `scene.error(_:_:)` (field paths from the root, e.g.
  ///   `measure.switchTimes`; the loader adds the line) or located errors of the files read.
  func configure(_ section: Section, in scene: inout SceneSection) throws
    -> any SessionConfiguration

  /// The configuration a live run adds when the scene has no session taking live messages
  /// (`LiveMessages`): this kind's defaults fed only from the socket. Default: nil (the kind
  /// takes no live messages).
  var liveMessageDefault: (any LiveMessageConfiguration)? { get }
}

extension SessionKind {
  /// No unknown-field check.
  public var schema: [String: Set<String>] { [:] }

  /// No live messages.
  public var liveMessageDefault: (any LiveMessageConfiguration)? { nil }
}

/// A kind's checked section of one scene: a value (it travels with the loaded scene across
/// threads) that makes a fresh session for each run.
public protocol SessionConfiguration: Sendable {
  /// Makes the session of one run (sessions hold run state and are never reused).
  /// - Throws: located errors of inputs opened now (e.g. videos).
  func makeSession(_ setup: SessionSetup) throws -> any Session

  /// The configuration for output images with intrinsics `new` instead of `old` (a resized
  /// replay): move whatever is given in output pixels (taps) to the pixels of the same camera
  /// rays. Default: unchanged.
  func resized(from old: CameraIntrinsics, to new: CameraIntrinsics) -> Self

  /// This configuration as one whose session takes live messages, if it is one
  /// (`LiveMessageConfiguration` answers itself). Default: nil.
  var liveMessageConfiguration: (any LiveMessageConfiguration)? { get }
}

extension SessionConfiguration {
  /// Takes no live messages.
  public var liveMessageConfiguration: (any LiveMessageConfiguration)? { nil }

  /// Unchanged: nothing in output pixels.
  public func resized(from old: CameraIntrinsics, to new: CameraIntrinsics) -> Self { self }
}

/// What a session is told when a run makes it.
public struct SessionSetup: Sendable {
  /// The scene file's path (for messages naming it).
  public var sceneFilePath: String
  /// The scene's name.
  public var sceneName: String

  /// Creates a setup.
  public init(sceneFilePath: String, sceneName: String) {
    self.sceneFilePath = sceneFilePath
    self.sceneName = sceneName
  }
}
