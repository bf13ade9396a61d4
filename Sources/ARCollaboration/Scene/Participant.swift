import ARMath
import ARScene

/// One device of a collaborative session: its RTM id, when it is where, where it anchored the
/// shared scene, its colour, and optionally a recorded log of what it received.
///
/// Each participant stays in its own world frame (its own track's ARKit world); only
/// `anchor` ties the worlds together, as in the app (SourceApps.md §4.3 "Anchoring").
public struct Participant: Hashable, Sendable {
  /// The RTM id (`rtmID`; a UUID string in the app), also its folder name in the outputs.
  public var id: String
  /// Where `collabBase`'s anchor is, in this participant's world.
  public var anchor: CollabAnchor
  /// Where the globe's anchor is (the app anchors the globe and the room separately, each on
  /// a horizontal plane), or nil for `anchor`.
  public var globeAnchor: CollabAnchor?
  /// `[r, g, b, a]` in 0…1, or nil for the app's random colour (`ParticipantColor`).
  public var color: [Double]?
  /// τ (seconds) at which it enters the globe lobby, or nil when it goes straight to the room.
  public var lobbySeconds: Double?
  /// τ at which it joins the room (≥ `lobbySeconds`), or nil when it never joins.
  public var joinSeconds: Double?
  /// τ at which it leaves the room, or nil.
  public var leaveSeconds: Double?
  /// Messages it receives from a recording, in addition to the simulated network's.
  public var messageLog: RTMMessageLog?

  /// Creates a participant.
  public init(
    id: String, anchor: CollabAnchor, globeAnchor: CollabAnchor? = nil, color: [Double]? = nil,
    lobbySeconds: Double? = nil,
    joinSeconds: Double? = 0, leaveSeconds: Double? = nil, messageLog: RTMMessageLog? = nil
  ) {
    self.id = id
    self.anchor = anchor
    self.globeAnchor = globeAnchor
    self.color = color
    self.lobbySeconds = lobbySeconds
    self.joinSeconds = joinSeconds
    self.leaveSeconds = leaveSeconds
    self.messageLog = messageLog
  }
}

/// Where a device anchored the shared scene, in its own world.
public enum CollabAnchor: Hashable, Sendable {
  /// An explicit world-from-anchor transform (metres).
  case transform(Matrix4)
  /// A horizontal plane anchor of at least 1 × 1 m, as the app's `AnchorEntity(plane:
  /// .horizontal, minimumBounds: [1, 1])`: the anchor sits at the plane's centre, axes the
  /// plane's (+Y its normal).
  case plane(PlaneAnchor)

  /// World from anchor.
  public var worldFromAnchor: Matrix4 {
    switch self {
    case .transform(let m): return m
    case .plane(let plane):
      return plane.worldFromAnchor.matrix * Matrix4(translation: plane.center)
    }
  }

  /// The app's minimum plane size, metres (`minimumBounds: [1, 1]`).
  public static let minimumPlaneExtent = 1.0

  /// Why `plane` cannot hold the shared scene, or nil when it can.
  public static func problem(with plane: PlaneAnchor) -> String? {
    if plane.alignment != .horizontal { return "the app anchors on a horizontal plane" }
    if plane.extent.x < minimumPlaneExtent || plane.extent.z < minimumPlaneExtent {
      return "plane extent \(plane.extent.x) × \(plane.extent.z) m is under the app's 1 × 1 m"
    }
    return nil
  }
}
