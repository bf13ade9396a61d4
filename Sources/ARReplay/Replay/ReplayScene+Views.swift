import ARFormats
import ARMath
import ARScene
import ARSession
import ARSupport
import ARTracking

extension ReplayScene {
  /// The scene's session that renders several views (a collaborative scene's participants), with
  /// its index in `sessions`, or nil for a single-view scene.
  public var multiView: (index: Int, configuration: any MultiViewConfiguration)? {
    for (i, session) in sessions.enumerated() {
      if let views = session.configuration as? any MultiViewConfiguration { return (i, views) }
    }
    return nil
  }

  /// The names of the views (empty for a single-view scene).
  public var viewNames: [String] { multiView?.configuration.views.map(\.name) ?? [] }

  /// The scene as view `index` sees it: that view's track, start, clamp, capture intrinsics,
  /// viewport and output size (the scene's where the view sets none), and the multi-view
  /// session replaced by the one rendering this view. Everything else (timing, lights, nodes,
  /// background, other sessions) is the scene's.
  /// - Precondition: `multiView` is not nil and `index` is one of its views.
  /// - Throws: `InputError` naming the view when its track does not cover the replay and does
  ///   not clamp.
  public func scene(forView index: Int) throws -> ReplayScene {
    guard let (_, configuration) = multiView else {
      preconditionFailure("scene(forView:) on a single-view scene")
    }
    return try scene(forView: index, session: configuration.view(index, sceneViewport: viewport))
  }

  /// The scene as view `index` sees it, as `scene(forView:)`, with `session` (from the run's
  /// `MultiViewRun.view(_:)`) in place of the multi-view session.
  /// - Throws: as `scene(forView:)`.
  public func scene(forView index: Int, session: any SessionConfiguration) throws -> ReplayScene {
    guard let (sessionIndex, configuration) = multiView else {
      preconditionFailure("scene(forView:) on a single-view scene")
    }
    let view = configuration.views[index]
    var copy = self
    copy.track = view.track
    copy.start = view.start
    copy.clampTrack = view.clampTrack
    copy.captureIntrinsics = view.captureIntrinsics ?? captureIntrinsics
    copy.viewport = view.viewport ?? viewport
    let size = view.outputSize ?? (outputIntrinsics.width, outputIntrinsics.height)
    copy.outputIntrinsics = copy.captureIntrinsics.output(
      viewport: copy.viewport, width: size.width, height: size.height)
    copy.sessions[sessionIndex] = SceneSession(
      key: sessions[sessionIndex].key, configuration: session)
    copy.tracking = view.tracking?.configuration ?? tracking
    copy.inputPaths += view.trackPaths
    if let first = view.track.poses.first, let last = view.track.poses.last, !view.clampTrack {
      let lastTick = schedule.tick(forFrame: schedule.frameCount - 1)
      let needed = view.start + schedule.time(ofTick: lastTick)
      let available = last.timeSeconds - first.timeSeconds
      if needed > available + 1e-9 {
        let location =
          view.trackField.map { Self.fieldLocation($0, inSceneFile: sceneFilePath) }
          ?? InputLocation(file: sceneFilePath, field: "view '\(view.name)' track")
        throw InputError(
          .badData, location,
          "view '\(view.name)': the replay runs to \(needed) s after the track's first pose "
            + "(its start + the scene's duration) but the track lasts \(available) s (shorten "
            + "the duration or the start, or set the track's clamp to hold the last pose)")
      }
    }
    // The view's own device discovers planes, from its own camera and tracker.
    copy.planes += try copy.discoveredPlanes()
    return copy
  }

  /// Gives every view of the multi-view session its own tracker (`ReplayView.tracking`): the
  /// scene's `tracking` section with the states recorded in the view's track and seed
  /// `seed + view index`, so that the view's frame loop and the sessions that need its camera
  /// (a collaborative peer's sent pose) see the same estimate.
  mutating func trackViews() {
    guard let (sessionIndex, configuration) = multiView else { return }
    var tracked = configuration
    let lastTime = schedule.time(ofFrame: schedule.frameCount - 1)
    for (index, view) in tracked.views.enumerated() {
      var viewTracking = tracking
      viewTracking.seed = tracking.seed &+ UInt64(index)
      let first = view.track.poses.first?.timeSeconds ?? 0
      viewTracking.recordedStates = view.track.trackingStates.map {
        TrackingKeyframe(t: $0.timeSeconds - first - view.start, state: $0.state)
      }
      tracked.views[index].tracking = ViewTracking(
        configuration: viewTracking, arFrameRate: schedule.arFrameRate, lastTime: lastTime)
    }
    sessions[sessionIndex] = SceneSession(
      key: sessions[sessionIndex].key, configuration: tracked)
  }
}
