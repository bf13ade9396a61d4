/// A user's pose and colour, after the app's `PeerData` (`Codable`; SourceApps.md §4.2): the
/// camera in `collabBase` space (scale fixed to one), its colour as `[r, g, b, a]`.
public struct PeerData: Codable, Hashable, Sendable {
  /// The user's RTM id; also the peer entity's name.
  public var rtmID: String
  /// The user's RTC (audio) uid, when it has joined audio; omitted when nil.
  public var rtcID: UInt?
  /// A model to show instead of the sphere; the app always sends nil (omitted).
  public var usdz: String?
  /// Scale (the app sends one).
  public var scale: SIMD3<Float>
  /// Camera orientation in `collabBase` space, quaternion vector (x, y, z, w).
  public var rotation: SIMD4<Float>
  /// Camera position in `collabBase` space, metres.
  public var translation: SIMD3<Float>
  /// `[r, g, b, a]` in 0…1 (`[CGFloat]`, a `Double` on 64-bit devices).
  public var colorVector: [Double]

  /// Creates peer data.
  public init(
    rtmID: String, rtcID: UInt? = nil, usdz: String? = nil, transform: EntityTransform,
    colorVector: [Double]
  ) {
    self.rtmID = rtmID
    self.rtcID = rtcID
    self.usdz = usdz
    self.scale = transform.scale
    self.rotation = transform.rotation
    self.translation = transform.translation
    self.colorVector = colorVector
  }

  /// The transform relative to `collabBase`.
  public var transform: EntityTransform {
    EntityTransform(scale: scale, rotation: rotation, translation: translation)
  }
}
