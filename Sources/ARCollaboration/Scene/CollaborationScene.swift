import ARMath
import ARScene
import ARSession

/// Everything a collaborative replay needs besides the participants' camera tracks: who takes
/// part, the room, the network between them, what the models look like and what people do.
public struct CollaborationScene: Hashable, Sendable {
  /// The participants, in the scene's order (their events and sends are processed in it).
  public var participants: [Participant]
  /// The room everybody joins.
  public var room: ChannelData
  /// The simulated network (Agora RTM limits by default).
  public var network: SimulatedNetwork.Configuration
  /// Model actions in time order (equal times: scene order).
  public var actions: [ModelAction]
  /// Asset name → what to draw; assets not listed get the app's placeholder.
  public var assets: [String: AssetShape]
  /// Seed of the random participant colours.
  public var seed: UInt64

  /// Creates a scene.
  public init(
    participants: [Participant], room: ChannelData = CollaborationScene.defaultRoom,
    network: SimulatedNetwork.Configuration = .init(limits: .agoraRTM),
    actions: [ModelAction] = [], assets: [String: AssetShape] = [:], seed: UInt64 = 0
  ) {
    self.participants = participants
    self.room = room
    self.network = network
    self.actions = actions.enumerated().sorted {
      ($0.element.seconds, $0.offset) < ($1.element.seconds, $1.offset)
    }
    .map(\.element)
    self.assets = assets
    self.seed = seed
  }

  /// The room the app creates: name "testName" (hard-coded in the app), channel id "room",
  /// marker at the top of the globe, "leaf" image, theme "Forest".
  public static let defaultRoom = ChannelData(
    channelName: "testName", channelID: "room", position: SIMD3(0, 0.51, 0),
    systemImage: "leaf", channelType: "Forest")
}

/// What an asset is drawn as: USDZ files are not loaded, so a model is the app's placeholder
/// sphere (radius 0.05 m, the sphere it shows until the USDZ has loaded) or a primitive the
/// scene maps its asset name to.
public struct AssetShape: Hashable, Sendable {
  /// The shape in model-local metres.
  public var shape: Shape
  /// `[r, g, b, a]` 0…1.
  public var color: [Double]

  /// Creates an asset shape.
  public init(shape: Shape, color: [Double]) {
    self.shape = shape
    self.color = color
  }

  /// The app's placeholder: a white sphere of radius 0.05 m.
  public static let placeholder = AssetShape(
    shape: .sphere(Sphere(radius: 0.05)), color: [1, 1, 1, 1])
}
