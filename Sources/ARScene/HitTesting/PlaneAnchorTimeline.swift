import ARMath

/// The life of one plane anchor as ARKit reports it to `ARSessionDelegate`: added at
/// `appearsAt` (`session(_:didAdd:)`), updated in discrete steps (`session(_:didUpdate:)`:
/// the `ARPlaneAnchor`'s `center`, `extent` and `geometry` change as more of the surface is
/// seen), and removed (`session(_:didRemove:)`), possibly because another anchor grew over it
/// (ARKit merges planes it finds to be one surface: one anchor is removed, the other
/// updated). Each update applies from its time until the next one — no interpolation, as the
/// delegate's updates arrive — so every tick sees one exact state.
///
/// Times are replay τ in seconds; a change applies from the first AR tick with τ ≥ its time
/// (the same `<=` comparison of `Double`s as `appearsAt`). The anchor's transform does not
/// change (ARSim's reading: ARKit keeps an anchor's transform and moves `center`).
public struct PlaneAnchorTimeline: Hashable, Sendable {
  /// A `didUpdate`: the anchor's new `center`, `extent` and boundary (anchor frame, metres,
  /// y = 0), from `t` on.
  public struct Update: Hashable, Sendable {
    /// τ from which the update applies, seconds.
    public var t: Double
    /// The rectangle's new centre in the anchor frame.
    public var center: Vector3
    /// The rectangle's new size along local X and Z.
    public var extent: Vector3
    /// The new convex boundary polygon, or nil for the extent rectangle.
    public var boundary: [Vector3]?

    /// Creates an update.
    public init(t: Double, center: Vector3, extent: Vector3, boundary: [Vector3]? = nil) {
      self.t = t
      self.center = center
      self.extent = extent
      self.boundary = boundary
    }
  }

  /// The anchor as first detected (its identifier, transform and alignment never change).
  public var initial: PlaneAnchor
  /// τ when the anchor is added, seconds.
  public var appearsAt: Double
  /// Updates in increasing `t`, each after `appearsAt` (checked by the scene loader).
  public var updates: [Update]
  /// τ when the anchor is removed, seconds (nil: it stays).
  public var removedAt: Double?
  /// The identifier of the anchor that grew over this one when it is removed by a merge.
  public var mergedInto: String?

  /// Creates a timeline.
  public init(
    initial: PlaneAnchor, appearsAt: Double = 0, updates: [Update] = [],
    removedAt: Double? = nil, mergedInto: String? = nil
  ) {
    self.initial = initial
    self.appearsAt = appearsAt
    self.updates = updates
    self.removedAt = removedAt
    self.mergedInto = mergedInto
  }

  /// The anchor's identifier.
  public var identifier: String { initial.identifier }

  /// Which state holds at τ = `t`: nil before `appearsAt` and from `removedAt` on; else 0 for
  /// the initial detection and k for the k-th update (1-based).
  /// - Complexity: O(log updates).
  public func version(at t: Double) -> Int? {
    guard appearsAt <= t else { return nil }
    if let removedAt, removedAt <= t { return nil }
    // The number of updates with time ≤ t (they are sorted).
    var low = 0
    var high = updates.count
    while low < high {
      let middle = (low + high) / 2
      if updates[middle].t <= t { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The anchor as it is at τ = `t` (the latest update applied), or nil when it is not
  /// present then.
  public func anchor(at t: Double) -> PlaneAnchor? {
    guard let version = version(at: t) else { return nil }
    guard version > 0 else { return initial }
    let update = updates[version - 1]
    var anchor = initial
    anchor.center = update.center
    anchor.extent = update.extent
    anchor.boundary = update.boundary
    return anchor
  }
}

extension Array where Element == PlaneAnchorTimeline {
  /// The anchors present at τ = `t`, each in its current state, in array order: what
  /// `ARFrame.anchors` holds at that tick (hit-tests and plane visuals use it).
  public func anchors(at t: Double) -> [PlaneAnchor] { compactMap { $0.anchor(at: t) } }
}
