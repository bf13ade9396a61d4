/// The scene file's `collaboration` section as written (Documentation/Collaboration.md); checked
/// and resolved by `CollaborationKind.configure`.
public struct CollaborationSection: Decodable, Sendable {
  /// Seed of random colours (default 0).
  public var seed: UInt64?
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
    public var channelID: String?
    public var channelName: String?
    public var position: [Float]?
    public var systemImage: String?
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
    public var from: String
    public var to: String
    public var latency: Double?
    public var jitter: Double?
    public var loss: Double?
  }

  /// One asset: exactly one of `sphere`, `box`, with a colour.
  public struct AssetSpec: Decodable, Sendable {
    public var sphere: SphereSpec?
    public var box: BoxSpec?
    /// `[r, g, b]` or `[r, g, b, a]`, 0…1.
    public var color: [Double]?
  }

  public struct SphereSpec: Decodable, Sendable { public var radius: Double }
  public struct BoxSpec: Decodable, Sendable {
    public var width: Double
    public var height: Double
    public var length: Double
  }

  /// One participant.
  public struct ParticipantSpec: Decodable, Sendable {
    public var id: String
    public var track: TrackSpec
    /// Seconds after its track's first pose where τ = 0.
    public var start: Double?
    public var intrinsics: IntrinsicsSpec?
    public var viewport: String?
    public var output: SizeSpec?
    public var color: [Double]?
    /// τ it enters the globe lobby.
    public var lobby: Double?
    /// τ it joins the room (default 0; null = never).
    public var join: Double?
    public var leave: Double?
    public var anchor: AnchorSpec
    /// The globe's anchor (default: `anchor`).
    public var globeAnchor: AnchorSpec?
    /// A recorded message log (JSON Lines) it receives.
    public var messages: String?
  }

  public struct TrackSpec: Decodable, Sendable {
    public var path: String
    public var format: String?
    public var cameraAxes: String?
    public var worldUp: String?
    public var clamp: Bool?
  }

  public struct IntrinsicsSpec: Decodable, Sendable {
    public var fx: Double
    public var fy: Double
    public var cx: Double
    public var cy: Double
    public var width: Int
    public var height: Int
  }

  public struct SizeSpec: Decodable, Sendable {
    public var width: Int
    public var height: Int
  }

  /// Either an explicit pose (`position`, `eulerAngles`) or `plane`.
  public struct AnchorSpec: Decodable, Sendable {
    public var position: [Double]?
    public var eulerAngles: [Double]?
    public var plane: PlaneSpec?
  }

  /// A horizontal plane anchor in the participant's world.
  public struct PlaneSpec: Decodable, Sendable {
    public var position: [Double]
    public var eulerAngles: [Double]?
    /// `[x, z]` metres.
    public var extent: [Double]
  }

  /// One action: `t`, `participant` and exactly one of `add`, `select`, `move`, `unselect`,
  /// `remove`.
  public struct ActionSpec: Decodable, Sendable {
    public var t: Double
    public var participant: String
    public var add: AddSpec?
    public var select: String?
    public var move: String?
    public var path: [KeyframeSpec]?
    public var unselect: String?
    public var remove: String?
  }

  public struct AddSpec: Decodable, Sendable {
    public var model: String
    public var usdz: String
    /// `true`: where the screen centre meets the collabBase floor.
    public var screenCenter: Bool?
    public var translation: [Float]?
    /// Quaternion vector x, y, z, w.
    public var rotation: [Float]?
    public var scale: [Float]?
  }

  public struct KeyframeSpec: Decodable, Sendable {
    public var t: Double
    public var translation: [Float]
    public var rotation: [Float]?
    public var scale: [Float]?
  }
}
