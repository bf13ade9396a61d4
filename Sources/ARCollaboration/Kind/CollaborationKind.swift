import ARFormats
import ARMath
import ARScene
import ARSession
import ARSupport

/// CollaboratAR's session kind: scene-file key `collaboration` (Documentation/Collaboration.md).
/// A scene with it renders one view per participant.
public struct CollaborationKind: SessionKind {
  /// The section's shape.
  public typealias Section = CollaborationSection

  /// Creates the kind.
  public init() {}

  /// `collaboration`.
  public var key: String { "collaboration" }

  /// The known fields, for unknown-field warnings.
  public var schema: [String: Set<String>] {
    [
      "collaboration": ["seed", "room", "network", "assets", "participants", "actions"],
      "collaboration.room": ["channelID", "channelName", "position", "systemImage", "channelType"],
      "collaboration.network": ["latency", "jitter", "loss", "limits", "links"],
      "collaboration.network.links[]": ["from", "to", "latency", "jitter", "loss"],
      "collaboration.participants[]": [
        "id", "track", "start", "intrinsics", "viewport", "output", "color", "lobby", "join",
        "leave", "anchor", "globeAnchor", "messages",
      ],
      "collaboration.participants[].track": TrackSpec.fields,
      "collaboration.participants[].intrinsics": IntrinsicsSpec.fields,
      "collaboration.participants[].output": SizeSpec.fields,
      "collaboration.participants[].anchor": ["position", "eulerAngles", "plane"],
      "collaboration.participants[].anchor.plane": ["position", "eulerAngles", "extent"],
      "collaboration.participants[].globeAnchor": ["position", "eulerAngles", "plane"],
      "collaboration.participants[].globeAnchor.plane": ["position", "eulerAngles", "extent"],
      "collaboration.actions[]": [
        "t", "participant", "add", "select", "move", "path", "unselect", "remove",
      ],
      "collaboration.actions[].add": [
        "model", "usdz", "screenCenter", "translation", "rotation", "scale",
      ],
    ]
  }

  /// - Throws: `InputError` naming the field (`collaboration.participants[1].anchor.plane`) for
  ///   fewer than two participants, repeated or unsafe ids, bad numbers, anchors off the app's
  ///   rules, unknown participants or assets in actions; located errors of the tracks and logs.
  public func configure(_ section: Section, in scene: inout SceneSection) throws
    -> any SessionConfiguration
  {
    let builder = CollaborationSceneBuilder(section: section)
    return try builder.build(in: &scene)
  }
}
