import ARScene

/// Where a stroke sphere came from, reported with its node in trace.jsonl (`strokeLine`,
/// `strokePoint`, `hit`, `plane`) so outside checks can tie each sphere to the helper point
/// that made it.
public struct StrokePointOrigin: Hashable, Sendable {
  /// The stroke log's 1-based line holding the point's message (live: its line in
  /// `strokes-received.jsonl`; 0 for messages made in code).
  public var messageLine: Int
  /// The point's 0-based position among its message's points (pieces that failed to parse
  /// counted, so faithful mode's spheres start at 1).
  public var pointIndex: Int
  /// The hit-test type whose surface the sphere rests on (remote assist's `surface` mode), or
  /// `nil` when it was not placed on a surface.
  public var hitType: HitTestType?
  /// The identifier of the plane anchor hit, when `hitType` is an existing-plane type.
  public var planeAnchor: String?

  /// Creates an origin.
  public init(
    messageLine: Int, pointIndex: Int, hitType: HitTestType? = nil, planeAnchor: String? = nil
  ) {
    self.messageLine = messageLine
    self.pointIndex = pointIndex
    self.hitType = hitType
    self.planeAnchor = planeAnchor
  }
}
