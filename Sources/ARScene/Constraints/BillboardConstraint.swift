import ARMath

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Orients a node to face the point of view, as SceneKit's `SCNBillboardConstraint`.
///
/// With `freeAxes == .all` the node takes the point of view's world rotation (screen-aligned:
/// its +Z points back at the viewer, +Y along the screen's up). With `.y` it only yaws about
/// world +Y so its +Z points toward the viewer's position projected on the horizontal plane.
/// Position and scale are kept.
public struct BillboardConstraint: Hashable, Sendable {
  /// Which rotations are allowed.
  public enum FreeAxes: String, Hashable, Sendable {
    /// Any rotation (SceneKit default).
    case all
    /// Yaw about world +Y only.
    case y
  }

  /// Which rotations are allowed (default `.all`).
  public var freeAxes: FreeAxes

  /// Creates a billboard constraint.
  public init(freeAxes: FreeAxes = .all) { self.freeAxes = freeAxes }

  /// The world rotation for a node at `nodePosition` seen from `worldFromPointOfView`, or nil
  /// for `.y` when the viewer is straight above or below.
  public func worldRotation(nodePosition: Vector3, worldFromPointOfView: Matrix4) -> Matrix3? {
    switch freeAxes {
    case .all:
      let m = worldFromPointOfView.upperLeft3x3
      return m.orthonormalized
    case .y:
      let toViewer = worldFromPointOfView.translation - nodePosition
      guard Vector2(toViewer.x, toViewer.z).length > 1e-12 else { return nil }
      let yaw = atan2(toViewer.x, toViewer.z)
      return Quaternion(axis: .unitY, angleRadians: yaw).rotationMatrix
    }
  }
}
