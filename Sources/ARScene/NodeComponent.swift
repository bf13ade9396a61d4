/// Data a session kind attaches to a node, as RealityKit attaches `Component`s to an `Entity`:
/// the scene graph carries it without knowing the kind, and the node's entry in `trace.jsonl`
/// carries the fields the component reports (e.g. remote assist's stroke spheres: the stroke
/// and the helper point that made them).
public protocol NodeComponent: Sendable {
  /// Writes this component's fields of the node's trace entry, in order; they follow the
  /// node's common fields (`name`, `kind`, `worldTransform`, `radius`, `rgba`). Keys are the
  /// kind's own and must not repeat another component's.
  func writeTraceFields(to fields: inout some NodeFieldWriter)
}

/// Where a `NodeComponent` writes its trace fields (the frame loop writes them into the trace
/// line's JSON object).
public protocol NodeFieldWriter {
  /// Writes `"key": value` for an integer.
  mutating func integer(_ key: String, _ value: Int)
  /// Writes `"key": "value"` for a string (escaped as JSON).
  mutating func string(_ key: String, _ value: String)
}

extension Node {
  /// The node's component of type `T`, if it has one.
  public func component<T: NodeComponent>(_ type: T.Type) -> T? {
    for component in components {
      if let found = component as? T { return found }
    }
    return nil
  }

  /// Sets the node's component of `component`'s type (replacing one it had).
  public func setComponent<T: NodeComponent>(_ component: T) {
    if let index = components.firstIndex(where: { $0 is T }) {
      components[index] = component
    } else {
      components.append(component)
    }
  }
}
