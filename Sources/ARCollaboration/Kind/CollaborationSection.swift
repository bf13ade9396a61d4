import ARFormats
import ARSession
import ARSupport

/// The scene file's `collaboration` section as written (Documentation/Collaboration.md); checked
/// and resolved by `CollaborationKind.configure`.
public struct CollaborationSection: Decodable, Sendable {
  /// Seed of random colours (default 0).
  public var seed: JSONUnsignedInteger?
  /// The room (defaults: `CollaborationScene.defaultRoom`).
  public var room: RoomSpec?
  /// The network (default: ideal links, Agora RTM limits).
  public var network: NetworkSpec?
  /// Asset name → primitive.
  public var assets: [String: AssetSpec]?
  /// Two or more participants.
  public var participants: [ParticipantSpec]
  /// Model actions.
  public var actions: [ActionSpec]?

  /// `room`.
  public struct RoomSpec: Decodable, Sendable {
    /// The room's channel id.
    public var channelID: String?
    /// The room's display name.
    public var channelName: String?
    /// Position, metres (stored as RealityKit's `Float`).
    public var position: [Double]?
    /// An SF Symbols name for the marker.
    public var systemImage: String?
    /// The room's theme.
    public var channelType: String?
  }

  /// `network`: the default link and per-link overrides.
  public struct NetworkSpec: Decodable, Sendable {
    /// One-way latency, seconds.
    public var latency: Double?
    /// Uniform extra delay up to this, seconds.
    public var jitter: Double?
    /// Loss probability 0…1.
    public var loss: Double?
    /// `agoraRTM` (default) or `none`.
    public var limits: String?
    /// Directed overrides.
    public var links: [LinkSpec]?
  }

  /// One directed link.
  public struct LinkSpec: Decodable, Sendable {
    /// The sending participant's id.
    public var from: String
    /// The receiving participant's id.
    public var to: String
    /// One-way latency, seconds.
    public var latency: Double?
    /// Uniform extra delay up to this, seconds.
    public var jitter: Double?
    /// Loss probability 0…1.
    public var loss: Double?
  }

  /// One asset: exactly one of `sphere`, `box`, with a colour.
  public struct AssetSpec: Decodable, Sendable {
    /// A sphere.
    public var sphere: SphereSpec?
    /// A box.
    public var box: BoxSpec?
    /// `[r, g, b]` or `[r, g, b, a]`, 0…1.
    public var color: [Double]?
  }

  /// The `SphereSpec` shape.
  public struct SphereSpec: Decodable, Sendable {
    /// Radius, metres.
    public var radius: Double
  }
  /// The `BoxSpec` shape.
  public struct BoxSpec: Decodable, Sendable {
    /// Extent along local x, metres.
    public var width: Double
    /// Extent along local y, metres.
    public var height: Double
    /// Length (z), metres.
    public var length: Double
  }

  /// One participant.
  public struct ParticipantSpec: Decodable, Sendable {
    /// The RTM id and output folder name.
    public var id: String
    /// The camera track (the scene file's shared shape, `times` and `sensor` included).
    public var track: TrackSpec
    /// Seconds after its track's first pose where τ = 0.
    public var start: Double?
    /// Capture intrinsics (the scene file's shared shape).
    public var intrinsics: IntrinsicsSpec?
    /// `landscape` or `portrait`.
    public var viewport: String?
    /// Output size in pixels.
    public var output: SizeSpec?
    /// `[r, g, b]` or `[r, g, b, a]`, 0…1.
    public var color: [Double]?
    /// τ it enters the globe lobby.
    public var lobby: Double?
    /// τ it joins the room (default 0; null = never).
    public var join: Double?
    /// τ it leaves the room.
    public var leave: Double?
    /// Where collabBase's anchor is.
    public var anchor: AnchorSpec
    /// The globe's anchor (default: `anchor`).
    public var globeAnchor: AnchorSpec?
    /// A recorded message log (JSON Lines) it receives.
    public var messages: String?
  }

  /// Either an explicit pose (`position`, `eulerAngles`) or `plane`.
  public struct AnchorSpec: Decodable, Sendable {
    /// Position, metres.
    public var position: [Double]?
    /// SceneKit Euler angles (pitch, yaw, roll), radians.
    public var eulerAngles: [Double]?
    /// A horizontal plane anchor.
    public var plane: PlaneSpec?
  }

  /// A horizontal plane anchor in the participant's world.
  public struct PlaneSpec: Decodable, Sendable {
    /// Position, metres.
    public var position: [Double]
    /// SceneKit Euler angles (pitch, yaw, roll), radians.
    public var eulerAngles: [Double]?
    /// `[x, z]` metres.
    public var extent: [Double]
  }

  /// One action: `t`, `participant` and exactly one of `add`, `select`, `move`, `unselect`,
  /// `remove`.
  public struct ActionSpec: Decodable, Sendable {
    /// τ, seconds.
    public var t: Double
    /// The acting participant's id.
    public var participant: String
    /// Add a model.
    public var add: AddSpec?
    /// Select this model id.
    public var select: String?
    /// Move this model id along `path`.
    public var move: String?
    /// A path (file, or a move's keyframes).
    public var path: [KeyframeSpec]?
    /// Unselect this model id.
    public var unselect: String?
    /// Remove this model id.
    public var remove: String?
  }

  /// The `AddSpec` shape.
  public struct AddSpec: Decodable, Sendable {
    /// The model id.
    public var model: String
    /// The asset name.
    public var usdz: String
    /// `true`: where the screen centre meets the collabBase floor.
    public var screenCenter: Bool?
    /// Translation in collabBase space, metres.
    public var translation: [Double]?
    /// Quaternion vector x, y, z, w.
    public var rotation: [Double]?
    /// Scale.
    public var scale: [Double]?
  }

  /// The `KeyframeSpec` shape.
  public struct KeyframeSpec: Decodable, Sendable {
    /// τ, seconds.
    public var t: Double
    /// Translation in collabBase space, metres.
    public var translation: [Double]
    /// Rotation, quaternion x, y, z, w.
    public var rotation: [Double]?
    /// Scale.
    public var scale: [Double]?
  }
}
