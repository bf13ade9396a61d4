import ARMath

/// One surface found by a hit test, as ARKit's `ARHitTestResult`.
public struct HitTestResult: Hashable, Sendable {
  /// The search type that produced the result.
  public var type: HitTestType
  /// Distance in metres from the camera centre to the hit point, along the (unit) ray.
  public var distance: Double
  /// World from hit: translation = the hit point (world, metres); rotation = the anchor's for a
  /// plane hit, identity for an estimated plane or a feature point. ARKit does not document the
  /// rotation of plane hits; the anchor's is ARSim's inference (SourceApps.md §7.8).
  public var worldTransform: Matrix4
  /// The plane anchor hit (existing-plane types only).
  public var anchor: PlaneAnchor?

  /// Creates a result.
  public init(type: HitTestType, distance: Double, worldTransform: Matrix4, anchor: PlaneAnchor?) {
    self.type = type
    self.distance = distance
    self.worldTransform = worldTransform
    self.anchor = anchor
  }

  /// The hit point in world coordinates (metres): `worldTransform`'s translation, as the apps'
  /// `worldTransform.columns.3.xyz`.
  public var worldPosition: Vector3 { worldTransform.translation }
}
