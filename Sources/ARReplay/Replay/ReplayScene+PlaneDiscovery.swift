import AREnvironment
import ARMath
import ARScene
import ARSupport
import ARTracking

extension ReplayScene {
  /// The plane anchors discovered in the environment (`environment.planeDetection`;
  /// Documentation/Environments.md, "Plane discovery"), as timelines beside the hand-keyed
  /// ones: every delivered camera frame of the run, in tick order, is shown to
  /// `PlaneDiscovery` with the true camera of its capture (capture intrinsics, so the output
  /// size changes nothing) and, with a `tracking` section, the tracker's estimate then (a
  /// tracking simulation of its own, the same seed and ticks as the frame loop's). Identifiers
  /// are `discovered-1`, `discovered-2`, … in the order the anchors are added (skipping any a
  /// hand-keyed plane uses). Empty without plane detection. In a multi-view scene each view
  /// discovers its own (`scene(forView:)`: its track, start and tracker), as each device's
  /// ARKit session does.
  /// - Throws: what the camera track throws for a τ outside it.
  func discoveredPlanes() throws -> [TimedPlaneAnchor] {
    guard !discoverySurfaces.isEmpty else { return [] }
    var discovery = PlaneDiscovery(
      surfaces: discoverySurfaces, settings: PlaneDiscoverySettings())
    let lastTime = schedule.time(ofFrame: schedule.frameCount - 1)
    let simulation = TrackingSimulation(
      configuration: tracking, arFrameRate: schedule.arFrameRate, lastTime: lastTime)
    let lastTick = schedule.tick(forFrame: schedule.frameCount - 1)
    for tick in 0...max(lastTick, 0) {
      let t = schedule.time(ofTick: tick)
      // The states do not matter here, only which frames arrive and the estimate.
      let frame = try simulation.advance(
        tick: tick, t: t, trueCamera: { try viewportCamera(at: $0) },
        featurePointsInView: { _ in Int.max })
      guard frame.delivery == .delivered else { continue }
      let camera = Camera(
        intrinsics: captureIntrinsics,
        worldFromCamera: try worldFromCaptureCamera(at: frame.captureTime), near: near, far: far)
      var observation = PlaneObservation(t: t, camera: camera)
      if tracking.isActive {
        observation.estimatedFromTrue =
          frame.camera.worldFromCamera * frame.trueCamera.worldFromCamera.inverse
      }
      discovery.observe(observation)
    }
    let taken = Set(planes.map(\.anchor.identifier))
    var identifiers: [String] = []
    var next = 1
    let timelines = discovery.timelines { k in
      while identifiers.count <= k {
        while taken.contains("discovered-\(next)") { next += 1 }
        identifiers.append("discovered-\(next)")
        next += 1
      }
      return identifiers[k]
    }
    return timelines.map { TimedPlaneAnchor(timeline: $0, visualization: "none") }
  }

  /// The surfaces plane discovery may never see: a surface too large for
  /// `PlaneDiscoverySettings.maximumCellsPerSurface` cells of the usual size is scanned in
  /// larger cells, and where a cell's centre can then lie farther than `maximumDistance` from
  /// any camera on it, the surface may never be discovered. One warning per size and part.
  func planeDiscoveryWarnings() -> [String] {
    guard let environment else { return [] }
    let settings = PlaneDiscoverySettings()
    // Metres as a person reads them: whole above 10 m, one decimal below (a 0.5 m side is not 0).
    func metres(_ x: Double) -> String {
      x >= 10 ? "\(Int(x.rounded()))" : "\((x * 10).rounded() / 10)"
    }
    var warnings: [String] = []
    for surface in discoverySurfaces where surface.cellSize > settings.maximumDistance {
      let width = surface.maximum.a - surface.minimum.a
      let depth = surface.maximum.b - surface.minimum.b
      let name =
        environment.parts.indices.contains(surface.part)
        ? InputText.quoted(environment.parts[surface.part].name, limit: 60) : "a part"
      let warning =
        "environment: a \(metres(width)) m × \(metres(depth)) m surface of \(name) "
        + "is scanned in \(metres(surface.cellSize)) m cells (at most "
        + "\(settings.maximumCellsPerSurface) per surface), larger than the \(settings.maximumDistance) m "
        + "range a cell is seen within; it may never be discovered as a plane"
      // A box's top and bottom are two surfaces of one size: one warning says it.
      if !warnings.contains(warning) { warnings.append(warning) }
    }
    return warnings
  }
}
