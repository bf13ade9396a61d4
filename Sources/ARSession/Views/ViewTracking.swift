import ARMath
import ARScene
import ARTracking

/// A view's tracker in a multi-view run (a scene's `tracking` section with several views,
/// Documentation/Tracking.md "Collaboration"): the configuration its frame loop's tracker runs
/// on, so that a session needing another view's camera (a collaborative peer's sent pose) can
/// run the same tracker and get the estimate that view's app saw.
public struct ViewTracking: Hashable, Sendable {
  /// The view's configuration: the scene's section with the states recorded in the view's own
  /// track and seed `section seed + view index` (two phones do not share their noise).
  public var configuration: TrackingConfiguration
  /// AR ticks per second (the scene's `arFrameRate`).
  public var arFrameRate: Double
  /// The last τ the track may be asked for (the last output frame's), seconds.
  public var lastTime: Double

  /// Creates a view's tracking.
  public init(configuration: TrackingConfiguration, arFrameRate: Double, lastTime: Double) {
    self.configuration = configuration
    self.arFrameRate = arFrameRate
    self.lastTime = lastTime
  }
}

/// The camera each view's app sees (`ARFrame.camera`, RealityKit's `ARView.cameraTransform`),
/// tick by tick: the track's viewport camera without a `tracking` section, otherwise the
/// estimate of the view's own tracker (`ViewTracking`), the same values its frame loop gives
/// the app, dropped and interrupted ticks keeping the last delivered pose.
public final class ViewAppCameras {
  private let views: [ReplayView]
  private let sceneViewport: Viewport
  private let trackers: [TrackingSimulation?]

  /// Cameras for `views`; `sceneViewport` for the views that set none.
  public init(views: [ReplayView], sceneViewport: Viewport) {
    self.views = views
    self.sceneViewport = sceneViewport
    trackers = views.map { view in
      view.tracking.map {
        TrackingSimulation(
          configuration: $0.configuration, arFrameRate: $0.arFrameRate, lastTime: $0.lastTime)
      }
    }
  }

  /// Every view's `worldFromCamera` at AR tick `tick` (τ `t` seconds), nil where the view has
  /// no pose (outside a track that does not clamp).
  /// - Precondition: called for ticks 0, 1, 2, … in order.
  public func worldFromCamera(tick: Int, t: Double) -> [Matrix4?] {
    zip(views, trackers).map { view, tracker in
      guard let tracker else {
        return try? view.worldFromViewportCamera(at: t, viewport: sceneViewport)
      }
      let viewport = sceneViewport
      let frame = try? tracker.advance(
        tick: tick, t: t,
        trueCamera: {
          Camera(
            intrinsics: .defaultCapture,
            worldFromCamera: try view.viewportPose(at: $0, viewport: viewport))
        },
        // The state's rules never move the estimate, so the count does not matter here.
        featurePointsInView: { _ in Int.max })
      return frame?.camera.worldFromCamera.matrix
    }
  }
}
