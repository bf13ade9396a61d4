import ARScene

/// Remote assist's data on its nodes (a `NodeComponent`): the stroke a root or sphere belongs
/// to and, for a sphere, the helper point that made it. Trace fields, in order: `"stroke"`,
/// then `"strokeLine"`, `"strokePoint"`, `"hit"`, `"plane"` (`StrokePointOrigin`).
public struct StrokeComponent: NodeComponent, Hashable {
  /// The stroke's 0-based index (the app's `touch-start` count).
  public var stroke: Int?
  /// A sphere's helper point.
  public var origin: StrokePointOrigin?

  /// Creates a component.
  public init(stroke: Int? = nil, origin: StrokePointOrigin? = nil) {
    self.stroke = stroke
    self.origin = origin
  }

  /// `"stroke"`, then the origin's `"strokeLine"`, `"strokePoint"`, `"hit"`, `"plane"`.
  public func writeTraceFields(to fields: inout some NodeFieldWriter) {
    if let stroke { fields.integer("stroke", stroke) }
    guard let origin else { return }
    fields.integer("strokeLine", origin.messageLine)
    fields.integer("strokePoint", origin.pointIndex)
    if let hit = origin.hitType { fields.string("hit", hit.rawValue) }
    if let plane = origin.planeAnchor { fields.string("plane", plane) }
  }
}

extension Node {
  /// The stroke this node belongs to (its `StrokeComponent`'s), reported as `"stroke"` in
  /// trace.jsonl.
  public var strokeIndex: Int? {
    get { component(StrokeComponent.self)?.stroke }
    set {
      var stroke = component(StrokeComponent.self) ?? StrokeComponent()
      stroke.stroke = newValue
      setComponent(stroke)
    }
  }

  /// A stroke sphere's helper point (its `StrokeComponent`'s): message line, point index,
  /// surface hit (trace.jsonl).
  public var strokePoint: StrokePointOrigin? {
    get { component(StrokeComponent.self)?.origin }
    set {
      var stroke = component(StrokeComponent.self) ?? StrokeComponent()
      stroke.origin = newValue
      setComponent(stroke)
    }
  }
}
