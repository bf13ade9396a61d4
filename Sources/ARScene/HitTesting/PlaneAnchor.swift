import ARMath

/// A detected plane, as ARKit's `ARPlaneAnchor`.
///
/// The plane lies in the anchor's local XZ plane (normal +Y). `center` and `extent` are in the
/// anchor's frame with y = 0; the extent rectangle is `center ± extent/2` along local X and Z.
public struct PlaneAnchor: Hashable, Sendable {
  /// Whether the plane is horizontal (floor, table) or vertical (wall).
  public enum Alignment: String, Hashable, Sendable, CaseIterable {
    /// Normal along world ±Y.
    case horizontal
    /// Normal perpendicular to world Y.
    case vertical
  }

  /// What kind of surface the plane is, as ARKit's `ARPlaneAnchor.Classification` (its
  /// `none` case is `.none`; hand-keyed anchors have nil: not classified).
  public enum Classification: String, Hashable, Sendable, CaseIterable {
    /// A wall or similar large vertical surface.
    case wall
    /// A floor, ground plane or similar large horizontal surface.
    case floor
    /// A ceiling.
    case ceiling
    /// A table, desk, bar or similar flat surface.
    case table
    /// A chair, stool, couch or similar seat.
    case seat
    /// A door.
    case door
    /// A window.
    case window
    /// No classification (ARKit's `.none`).
    case none
  }

  /// An identifier (scene files name their anchors).
  public var identifier: String
  /// World from anchor (rigid).
  public var worldFromAnchor: RigidTransform
  /// The rectangle's centre in the anchor frame (metres, y = 0).
  public var center: Vector3
  /// The rectangle's size along local X and Z (metres; y ignored).
  public var extent: Vector3
  /// Optional convex boundary polygon in the anchor's XZ plane (metres, y = 0), counter-clockwise
  /// seen from +Y; `nil` = the extent rectangle.
  public var boundary: [Vector3]?
  /// The alignment.
  public var alignment: Alignment
  /// The surface's classification (plane discovery from an environment); nil: none given.
  public var classification: Classification?

  /// Creates an anchor.
  public init(
    identifier: String, worldFromAnchor: RigidTransform, center: Vector3 = .zero,
    extent: Vector3, boundary: [Vector3]? = nil, alignment: Alignment = .horizontal,
    classification: Classification? = nil
  ) {
    self.identifier = identifier
    self.worldFromAnchor = worldFromAnchor
    self.center = center
    self.extent = extent
    self.boundary = boundary
    self.alignment = alignment
    self.classification = classification
  }
}
