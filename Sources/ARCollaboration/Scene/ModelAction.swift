/// What a participant does to a shared model at a time τ (from the scene file), as the app's
/// gestures would: add, select, move along a path, unselect, remove.
public struct ModelAction: Hashable, Sendable {
  /// When, τ seconds (a move's first path time).
  public var seconds: Double
  /// Who does it (participant id).
  public var participant: String
  /// The model's id (`ModelData.id`).
  public var model: String
  /// What is done.
  public var kind: Kind
  /// 0-based index in the scene's `actions` array (for events).
  public var index: Int

  /// The action.
  public enum Kind: Hashable, Sendable {
    /// Create model `model` from asset `usdz` at `placement`; sent at once as
    /// `singleCollabModel`.
    case add(usdz: String, placement: Placement)
    /// Select it: from now on its `ModelData` goes out with every 0.3 s update.
    case select
    /// Move it along a path of (τ, transform in `collabBase` space) keyframes, linear in
    /// between (translation and scale lerp, rotation slerp); the owner's view follows the path
    /// exactly, the others see the 0.3 s updates.
    case move(path: [Keyframe])
    /// Unselect it: one last `singleCollabModel`, then no more periodic updates.
    case unselect
    /// Delete it: removed locally and `removeCollabModel` sent.
    case remove
  }

  /// Where a new model goes.
  public enum Placement: Hashable, Sendable {
    /// An explicit transform in `collabBase` space.
    case collabBase(EntityTransform)
    /// Where the centre of the participant's screen (its camera's −Z ray) meets the
    /// `collabBase` floor plane (y = 0 in `collabBase` space); no hit → a warning, nothing added.
    case screenCenter
  }

  /// One point of a move path.
  public struct Keyframe: Hashable, Sendable {
    /// τ, seconds.
    public var seconds: Double
    /// The model's transform in `collabBase` space.
    public var transform: EntityTransform

    /// Creates a keyframe.
    public init(seconds: Double, transform: EntityTransform) {
      self.seconds = seconds
      self.transform = transform
    }
  }

  /// Creates an action.
  public init(seconds: Double, participant: String, model: String, kind: Kind, index: Int = 0) {
    self.seconds = seconds
    self.participant = participant
    self.model = model
    self.kind = kind
    self.index = index
  }
}
