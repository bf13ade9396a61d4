import ARSession
import ARSupport

/// The measure app's session kind: scene-file key `measure`, `{"switchTimes": [τ seconds]}`
/// (Documentation/SceneFile.md), making a `MeasureSession`.
public struct MeasureKind: SessionKind {
  /// The `measure` section.
  public struct Section: Decodable, Sendable {
    /// τ (seconds) at which the measuring switch toggles: on, off, on, …
    public var switchTimes: [Double]
  }

  /// The checked section: the switch times.
  public struct Configuration: SessionConfiguration {
    /// τ (seconds) of the switch toggles, checked by `MeasureSession.init(switchTimes:)`.
    public var switchTimes: [Double]

    /// Makes a `MeasureSession` with the switch times.
    public func makeSession(_ setup: SessionSetup) throws -> any Session {
      try MeasureSession(switchTimes: switchTimes)
    }
  }

  /// Creates the kind.
  public init() {}

  /// `measure`.
  public var key: String { "measure" }

  /// The section's known keys (others become warnings).
  public var schema: [String: Set<String>] { ["measure": ["switchTimes"]] }

  /// - Throws: `InputError` for `measure.switchTimes` when a time is not finite or decreases.
  public func configure(_ section: Section, in scene: inout SceneSection) throws
    -> any SessionConfiguration
  {
    do {
      _ = try MeasureSession(switchTimes: section.switchTimes)
    } catch {
      throw scene.error("measure.switchTimes", error.description)
    }
    return Configuration(switchTimes: section.switchTimes)
  }
}
