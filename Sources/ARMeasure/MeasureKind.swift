import ARSession
import ARSupport

/// The measure app's session kind: scene-file key `measure`, `{"switchTimes": [τ seconds]}`
/// (Documentation/SceneFile.md), making a `MeasureSession`.
public struct MeasureKind: SessionKind {
  /// The `measure` section.
  public struct Section: Decodable, Sendable {
    /// τ (seconds) at which the measuring switch toggles: on, off, on, …
    public var switchTimes: [Double]
    /// The camera tracking state: one state name for the whole run, or changes
    /// `[{"t": τ, "state": name}]`; an alias of the top-level `tracking.states` (the scene's
    /// tracking timeline, Documentation/Tracking.md), whose keyframes it adds.
    public var tracking: TrackingField?
  }

  /// `measure.tracking` as written: a state name, or a list of changes.
  public enum TrackingField: Decodable, Sendable {
    /// One state for the whole run.
    case constant(String)
    /// Changes over time.
    case changes([Change])

    /// One `{"t", "state"}` entry.
    public struct Change: Decodable, Sendable {
      /// τ, seconds.
      public var t: Double
      /// A `TrackingState` name (`TrackingState(name:)`).
      public var state: String
    }

    /// Decodes a string or an array of changes.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let name = try? container.decode(String.self) {
        self = .constant(name)
      } else {
        self = .changes(try container.decode([Change].self))
      }
    }
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
  public var schema: [String: Set<String>] {
    ["measure": ["switchTimes", "tracking"], "measure.tracking[]": ["t", "state"]]
  }

  /// `measure.tracking`'s states go to the scene's tracking timeline as keyframes
  /// (`scene.trackingKeyframes`), whose times the loader checks against the replay (0…its
  /// duration), as `tracking.states`'.
  /// - Throws: `InputError` for `measure.switchTimes` when a time is not finite or decreases,
  ///   for `measure.tracking` when a state name is unknown or a time is not finite or
  ///   decreases.
  public func configure(_ section: Section, in scene: inout SceneSection) throws
    -> any SessionConfiguration
  {
    do {
      _ = try MeasureSession(switchTimes: section.switchTimes)
    } catch {
      throw scene.error("measure.switchTimes", error.description)
    }
    let names =
      "notAvailable, normal, limitedExcessiveMotion, limitedInsufficientFeatures, initializing"
    func state(_ name: String, _ field: String) throws -> TrackingState {
      guard let state = TrackingState(name: name) else {
        throw scene.error(
          field, "\(InputText.quoted(name)) is not a tracking state (\(names), or ARKit's names)")
      }
      return state
    }
    switch section.tracking {
    case nil: break
    case .constant(let name):
      scene.addTrackingKeyframe(
        TrackingKeyframe(t: 0, state: try state(name, "measure.tracking")),
        field: "measure.tracking")
    case .changes(let changes):
      var last: Double?
      for (index, change) in changes.enumerated() {
        let named = try state(change.state, "measure.tracking[\(index)].state")
        guard change.t.isFinite, abs(change.t) < 9e12 else {
          throw scene.error(
            "measure.tracking", "tracking[\(index)].t is not a finite number of seconds")
        }
        if let last, (change.t * 1e6).rounded() < (last * 1e6).rounded() {
          throw scene.error(
            "measure.tracking",
            "tracking[\(index)].t is earlier than tracking[\(index - 1)].t (times must not decrease)"
          )
        }
        last = change.t
        scene.addTrackingKeyframe(
          TrackingKeyframe(t: change.t, state: named), field: "measure.tracking[\(index)].t")
      }
    }
    return Configuration(switchTimes: section.switchTimes)
  }
}
