import ARScene
import ARSession
import ARSupport

/// Turns the plane anchors' timelines into the events of `ARSessionDelegate`, one tick at a
/// time: `plane-added` (`session(_:didAdd:)`), `plane-updated` (`didUpdate`: a new centre,
/// extent or boundary) and `plane-removed` (`didRemove`, with `reason` `removed` or `merged`
/// and `mergedInto`). Each names the anchor (`anchor`); added and updated ones give its
/// `center` and `extent` (anchor frame, metres) and `boundary` (points, or null).
///
/// Anchors already present at the first tick get no `plane-added`: the replay starts `start`
/// seconds into a session that was running before (they are its state, as the scene's static
/// nodes are), which also keeps the events of scenes without a lifecycle unchanged.
struct PlaneLifecycleEvents {
  let timelines: [PlaneAnchorTimeline]
  /// The version of each anchor present after the previous tick (`PlaneAnchorTimeline.version`).
  private var versions: [String: Int] = [:]
  /// Whether a tick ran already (the first one records the initial state silently).
  private var started = false

  init(timelines: [PlaneAnchorTimeline]) { self.timelines = timelines }

  /// The anchors present at τ = `t`, in their current state; emits the changes since the
  /// previous call into `context`, added and updated anchors first, in scene order, then the
  /// removed ones.
  /// - Complexity: O(planes · log updates).
  mutating func advance(to t: Double, context: inout TickContext) -> [PlaneAnchor] {
    var present: [PlaneAnchor] = []
    var removed: [PlaneAnchorTimeline] = []
    for timeline in timelines {
      let before = versions[timeline.identifier]
      guard let version = timeline.version(at: t), let anchor = timeline.anchor(at: t) else {
        if before != nil {
          removed.append(timeline)
          versions[timeline.identifier] = nil
        }
        continue
      }
      present.append(anchor)
      versions[timeline.identifier] = version
      guard started else { continue }
      if before == nil {
        context.emit("plane-added", Self.fields(anchor))
      } else if before != version {
        context.emit("plane-updated", Self.fields(anchor))
      }
    }
    started = true
    for timeline in removed {
      var fields: [(String, JSONValue)] = [("anchor", .string(timeline.identifier))]
      if let target = timeline.mergedInto {
        fields += [("reason", "merged"), ("mergedInto", .string(target))]
      } else {
        fields.append(("reason", "removed"))
      }
      context.emit("plane-removed", fields)
    }
    return present
  }

  private static func fields(_ anchor: PlaneAnchor) -> [(String, JSONValue)] {
    // Discovered anchors also say what they are; hand-keyed ones keep today's fields.
    let discovered: [(String, JSONValue)] =
      anchor.classification.map {
        [
          ("alignment", .string(anchor.alignment.rawValue)),
          ("classification", .string($0.rawValue)),
        ]
      } ?? []
    return [
      ("anchor", .string(anchor.identifier)), ("center", .numbers(anchor.center.array)),
      ("extent", .numbers([anchor.extent.x, anchor.extent.z])),
      (
        "boundary",
        anchor.boundary.map { points in .array(points.map { .numbers([$0.x, $0.z]) }) } ?? .null
      ),
    ] + discovered
  }
}
