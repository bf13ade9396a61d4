import ARCameraImages
import ARRender
import ARRenderCore
import ARScene
import ARSession
import ARSupport
import ARTracking

/// The background of each output frame of a run, in frame order: fixed, one PNG per frame, or
/// recorded camera images decoded ahead on a bounded queue (`RecordedBackgroundFeed`).
final class FrameBackgrounds {
  private let scene: ReplayScene
  private let feed: RecordedBackgroundFeed?
  private let missing: Background

  /// Starts decoding ahead for `frames` when the scene has recorded images.
  init(scene: ReplayScene, frames: ClosedRange<Int>) throws {
    self.scene = scene
    guard case .recording(let recording) = scene.background else {
      feed = nil
      missing = .solid(.black)
      return
    }
    missing = recording.missing
    let source: any RecordedImageSource
    switch recording.source {
    case .list(let list): source = ImageListSource(list: list)
    case .video(let probe): source = try VideoFrameSource.open(probe)
    }
    let schedule = scene.schedule
    // Lists carry the pose clock's times; a video's times count from its first frame, as the
    // scene's `start` + τ counts from the track's first pose.
    let base: Double
    switch recording.source {
    case .list: base = (scene.track.poses.first?.timeSeconds ?? 0) + scene.start
    case .video: base = scene.start
    }
    let offset = recording.offset
    var fill = SIMD4<UInt8>(0, 0, 0, 255)
    if case .solid(let c) = recording.missing {
      fill = SIMD4(Self.byte(c.red), Self.byte(c.green), Self.byte(c.blue), 255)
    }
    let queryTime: @Sendable (Int) -> Double
    if scene.tracking.isActive {
      // The image the tracker's shown frame was captured with: a dropped or interrupted tick
      // keeps the last delivered frame's, as its pose (Documentation/Tracking.md). From frame
      // 0: a range asks for the frames before it too (the image they showed last).
      let times = TrackingSimulation.shownCaptureTimes(
        configuration: scene.tracking, arFrameRate: schedule.arFrameRate,
        lastTime: schedule.time(ofFrame: schedule.frameCount - 1),
        ticks: (0...frames.upperBound).map { schedule.tick(forFrame: $0) },
        time: { schedule.time(ofTick: $0) })
      queryTime = { frame in base + times[frame] + offset }
    } else {
      queryTime = { frame in base + schedule.time(ofFrame: frame) + offset }
    }
    feed = RecordedBackgroundFeed(
      source: source, lens: recording.lens, output: scene.outputIntrinsics,
      viewport: scene.viewport, fill: fill, frames: frames, queryTime: queryTime)
  }

  /// The background of output frame `frame` (frames asked for in order) and its events.
  /// - Throws: `InputError` for an unreadable `background.images` file, naming the frame and
  ///   the scene's field; the video decoder's failure for a recording.
  func next(_ frame: Int) throws -> (Background, [Event]) {
    switch scene.background {
    case .fixed(let b): return (b, [])
    case .images(let paths):
      let path = paths[min(frame, paths.count - 1)]
      do {
        return (.image(try Image(contentsOfPNG: path)), [])
      } catch let error as any LocatedError {
        var named = InputError(
          error.kind, error.location, "frame \(frame)'s background: \(error.reason)")
        named.namedBy = ReplayScene.fieldLocation(
          "background.images", inSceneFile: scene.sceneFilePath)
        throw named
      }
    case .recording:
      guard let feed else { return (missing, []) }
      let recorded = try feed.next()
      let t = scene.schedule.time(ofFrame: frame)
      let tick = scene.schedule.tick(forFrame: frame)
      let events = recorded.notices.map {
        Event(t: t, tick: tick, name: $0.name, fields: $0.fields)
      }
      return (recorded.image.map { .image($0) } ?? missing, events)
    }
  }

  /// What decoding the recorded images cost so far; nil without a recording.
  var cameraImageTimings: CameraImageTimings? { feed?.timings }

  /// Ends decoding.
  /// - Throws: the video decoder's failure.
  func finish() throws { try feed?.finish() }

  /// Stops decoding after a failure elsewhere.
  func cancel() { feed?.cancel() }

  private static func byte(_ value: Double) -> UInt8 {
    UInt8((min(1, max(0, value)) * 255).rounded())
  }
}
