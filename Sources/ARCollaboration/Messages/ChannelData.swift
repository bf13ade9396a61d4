/// A room as announced on the globe, after the app's `ChannelData` (`Codable`; SourceApps.md
/// §4.2). Encoded with the field names below; nil optionals are omitted.
public struct ChannelData: Codable, Hashable, Sendable {
  /// The room's display name (the app hard-codes `"testName"`).
  public var channelName: String
  /// The RTM (and RTC) channel id of the room, a UUID string in the app.
  public var channelID: String
  /// Where the room's marker sits on the globe, globe-local metres (radius 0.51).
  public var position: SIMD3<Float>
  /// An SF Symbols name for the marker (`"leaf"`, `"sun.max"`).
  public var systemImage: String?
  /// The room's theme (`"Forest"` / `"Desert"`); older clients omit it.
  public var channelType: String?

  /// Creates channel data.
  public init(
    channelName: String, channelID: String, position: SIMD3<Float>, systemImage: String? = nil,
    channelType: String? = nil
  ) {
    self.channelName = channelName
    self.channelID = channelID
    self.position = position
    self.systemImage = systemImage
    self.channelType = channelType
  }
}
