import ARFormats
import ARMath
import ARScene
import ARSession
import ARSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The on-site logic of the video-with-ARKit app (reference §3.3, §3.6, §3.7): taps place
/// `displayer.scn` screens on detected planes, and remote videos play on them.
///
/// Each AR tick, in this order:
/// 1. Taps with τ ≤ now (compared in integer microseconds) hit-test `existingPlane` (planes
///    of infinite extent, nearest hit first). A hit places a `DisplayerModel` tree under the
///    scene root, oriented by `DisplayerConfiguration.orientation`, and queues its screen as
///    unused; event `displayer-placed`. A miss raises `displayer-miss` (not an error).
/// 2. Videos whose `start` ≤ now join: each takes the first unused screen (screens in
///    placement order, as the app's `unusedScreenNodes.removeFirst()`), or waits / is dropped
///    (`waitingVideo`). A screen placed while videos wait takes the first waiting one.
///    Event `displayer-video-assigned`.
/// 3. Each screen with a video shows frame `VideoClock.frameIndex` at video time
///    τ − start: its material's `diffuseTexture` is that frame converted to RGBA
///    (`YCbCrConversion`), with diffuse white (SceneKit replaces the colour by the contents).
///    Frames are read and converted only when the index changes.
public final class DisplayerSession: Session {
  /// A placed displayer.
  public struct Screen: Hashable, Sendable {
    /// 0-based placement order.
    public var index: Int
    /// The plane anchor hit.
    public var anchorIdentifier: String
    /// World from displayer root at placement.
    public var worldFromRoot: RigidTransform
    /// The index in `DisplayerConfiguration.videos` shown, if any.
    public var videoIndex: Int?
    /// The video frame shown, if any.
    public var frameIndex: Int?
  }

  /// The configuration.
  public let configuration: DisplayerConfiguration
  /// The displayers placed so far, in placement order.
  public private(set) var screens: [Screen] = []

  private struct Stream {
    var reader: Y4MReader
    var clock: VideoClock
    var conversion: YCbCrConversion
    var startMicroseconds: Int64
  }

  /// Indices into `configuration.taps` in time order, and their times (µs).
  private let tapOrder: [Int]
  private let tapMicroseconds: [Int64]
  private var nextTap = 0
  private var streams: [Stream]
  /// Video indices in join order (start, then list order).
  private let joinOrder: [Int]
  private var nextJoin = 0
  private var screenNodes: [Node] = []
  private var unusedScreens: [Int] = []
  private var waitingVideos: [Int] = []

  /// Creates the session: opens every video, checks all its frames (`Y4MReader.scan()`).
  /// - Parameter sceneFile: the scene path, named in errors about taps and video starts.
  /// - Throws: `Y4MError` for a bad video; `InputError` naming the video for one with no
  ///   frames, and (field `displayers.taps[i].t` or `displayers.videos[i].start`) for a
  ///   non-finite or out-of-range time.
  public init(configuration: DisplayerConfiguration, sceneFile: String = "scene") throws {
    self.configuration = configuration
    func microseconds(_ t: Double, _ field: String) throws -> Int64 {
      guard t.isFinite, abs(t) < 1e12 else {
        throw InputError(
          .badData, InputLocation(file: sceneFile, field: field),
          "time \(t) is not a finite number of seconds below 1e12")
      }
      return ReplayTime.microseconds(t)
    }
    let tapTimes = try configuration.taps.enumerated().map { i, tap in
      try microseconds(tap.t, "displayers.taps[\(i)].t")
    }
    // Taps in time order whatever the file's order (equal times in list order), as the videos.
    tapOrder = tapTimes.indices.sorted { (tapTimes[$0], $0) < (tapTimes[$1], $1) }
    tapMicroseconds = tapOrder.map { tapTimes[$0] }
    var streams: [Stream] = []
    for (i, video) in configuration.videos.enumerated() {
      let start = try microseconds(video.start, "displayers.videos[\(i)].start")
      let reader = try Y4MReader(path: video.path)
      let count = try reader.scan()
      // A header alone would put a screen up that never shows a frame.
      guard count > 0 else {
        throw InputError(
          .badData, InputLocation(file: video.path), "the YUV4MPEG2 video has no frames")
      }
      streams.append(
        Stream(
          reader: reader,
          clock: VideoClock(
            rate: reader.header.frameRate, frameCount: count, end: configuration.end),
          conversion: YCbCrConversion(
            range: video.range ?? reader.header.range, appKernel: configuration.appKernel),
          startMicroseconds: start))
    }
    self.streams = streams
    joinOrder = streams.indices.sorted {
      (streams[$0].startMicroseconds, $0) < (streams[$1].startMicroseconds, $1)
    }
  }

  /// Places due displayers, assigns joining videos and updates the shown frames.
  public func update(_ context: inout TickContext) {
    let now = context.microseconds
    while nextTap < tapMicroseconds.count, tapMicroseconds[nextTap] <= now {
      tap(configuration.taps[tapOrder[nextTap]], &context)
      nextTap += 1
    }
    while nextJoin < joinOrder.count, streams[joinOrder[nextJoin]].startMicroseconds <= now {
      join(joinOrder[nextJoin], &context)
      nextJoin += 1
    }
    for i in screens.indices {
      guard let video = screens[i].videoIndex else { continue }
      showFrame(screen: i, video: video, &context)
    }
  }

  /// `("displayers", [{index, anchor, worldTransform (root, 16 column-major), video (path or
  /// null), frame (index or null)}])`.
  public func traceFields() -> [(String, JSONValue)] {
    let list = screens.map { s -> JSONValue in
      .object([
        ("index", .integer(s.index)), ("anchor", .string(s.anchorIdentifier)),
        ("worldTransform", .numbers(s.worldFromRoot.matrix.columnMajorElements)),
        ("video", s.videoIndex.map { .string(configuration.videos[$0].path) } ?? .null),
        ("frame", s.frameIndex.map { .integer($0) } ?? .null),
      ])
    }
    return [("displayers", .array(list))]
  }

  // MARK: Steps

  private func tap(_ tap: DisplayerTap, _ context: inout TickContext) {
    // A touch lands on the screen: the view spans pixel centres 0…W−1 and 0…H−1, so
    // u ∈ [−0.5, W − 0.5], v ∈ [−0.5, H − 0.5]. A tap beyond that cannot happen on a device.
    let width = Double(context.camera.intrinsics.width)
    let height = Double(context.camera.intrinsics.height)
    guard (-0.5...(width - 0.5)).contains(tap.u), (-0.5...(height - 0.5)).contains(tap.v) else {
      context.emit(
        "warning",
        [
          (
            "reason",
            .string(
              "tap at (\(tap.u), \(tap.v)) is outside the \(Int(width))×\(Int(height)) view: "
                + "a touch cannot happen there; ignored")
          ), ("u", .number(tap.u)), ("v", .number(tap.v)),
        ])
      return
    }
    // ARKit's `existingPlane`: the infinite plane of each anchor, nearest first.
    let results = HitTestScene(planes: context.planes).hitTest(
      u: tap.u, v: tap.v, types: [.existingPlane], camera: context.camera)
    guard let hit = results.first, let anchor = hit.anchor else {
      context.emit("displayer-miss", [("u", .number(tap.u)), ("v", .number(tap.v))])
      return
    }
    let rotation: Quaternion
    switch configuration.orientation {
    case .hitTransform: rotation = anchor.worldFromAnchor.rotation
    case .faceCamera:
      rotation = Quaternion(
        axis: .unitY, angleRadians: Self.headingYaw(of: context.camera.worldFromCamera))
    }
    let worldFromRoot = RigidTransform(
      rotation: rotation, translation: hit.worldTransform.translation)
    let index = screens.count
    let root = DisplayerModel.makeRoot(name: "displayer-root-\(index)")
    root.position = worldFromRoot.translation
    root.orientation = worldFromRoot.rotation
    context.root.addChildNode(root)
    screenNodes.append(root)
    screens.append(
      Screen(index: index, anchorIdentifier: anchor.identifier, worldFromRoot: worldFromRoot))
    context.emit(
      "displayer-placed",
      [
        ("index", .integer(index)), ("anchor", .string(anchor.identifier)),
        ("position", .numbers(worldFromRoot.translation.array)),
        ("distance", .number(hit.distance)), ("u", .number(tap.u)), ("v", .number(tap.v)),
      ])
    if waitingVideos.isEmpty {
      unusedScreens.append(index)
    } else {
      assign(video: waitingVideos.removeFirst(), screen: index, &context)
    }
  }

  private func join(_ video: Int, _ context: inout TickContext) {
    if !unusedScreens.isEmpty {
      assign(video: video, screen: unusedScreens.removeFirst(), &context)
      return
    }
    switch configuration.waitingVideo {
    case .queue: waitingVideos.append(video)
    case .drop:
      context.emit(
        "displayer-video-dropped",
        [("video", .integer(video)), ("path", .string(configuration.videos[video].path))])
    }
  }

  private func assign(video: Int, screen: Int, _ context: inout TickContext) {
    screens[screen].videoIndex = video
    context.emit(
      "displayer-video-assigned",
      [
        ("index", .integer(screen)), ("video", .integer(video)),
        ("path", .string(configuration.videos[video].path)),
      ])
  }

  private func showFrame(screen: Int, video: Int, _ context: inout TickContext) {
    let stream = streams[video]
    guard
      let frameIndex = stream.clock.frameIndex(
        atMicroseconds: context.microseconds - stream.startMicroseconds),
      frameIndex != screens[screen].frameIndex
    else { return }
    let frame: Y4MFrame
    do {
      guard let f = try stream.reader.frame(at: frameIndex) else { return }
      frame = f
    } catch {
      context.emit(
        "displayer-video-error",
        [("video", .integer(video)), ("error", .string(error.description))])
      return
    }
    guard let node = DisplayerModel.screen(of: screenNodes[screen]),
      var geometry = node.geometry
    else { return }
    geometry.material.diffuse = .white
    geometry.material.diffuseTexture = stream.conversion.texture(from: frame)
    node.geometry = geometry
    screens[screen].frameIndex = frameIndex
  }

  // MARK: Geometry

  /// A hit of an infinite plane: anchor, world from hit (anchor rotation, hit position),
  /// distance from the ray origin (metres).
  /// The camera heading as a yaw about world +Y (radians): the angle that turns −Z onto the
  /// horizontal projection of the camera's forward (−Z) axis, atan2(−f.x, −f.z). This is
  /// ARKit's `ARCamera.eulerAngles.y` (roll, then pitch, then yaw) for |pitch| < 90°
  /// [inference]. For a camera looking straight up or down, the camera's +Y (top of the image)
  /// gives the heading instead.
  static func headingYaw(of worldFromCamera: RigidTransform) -> Double {
    let forward = worldFromCamera.transformDirection(Vector3(0, 0, -1))
    if (forward.x * forward.x + forward.z * forward.z) > 1e-18 {
      return atan2(-forward.x, -forward.z)
    }
    let up = worldFromCamera.transformDirection(.unitY)
    return atan2(-up.x, -up.z)
  }
}
