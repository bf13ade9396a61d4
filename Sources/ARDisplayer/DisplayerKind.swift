import ARFormats
import ARScene
import ARSession
import ARSupport

/// The displayer app's session kind: scene-file key `displayers`, taps and remote videos
/// (Documentation/SceneFile.md), making a `DisplayerSession`.
public struct DisplayerKind: SessionKind {
  /// The `displayers` section.
  public struct Section: Decodable, Sendable {
    /// Taps: τ seconds and output pixel (u right, v down).
    public var taps: [Tap]
    /// `hitTransform` (default) or `faceCamera`.
    public var orientation: String?
    /// Remote videos (YUV4MPEG2), assigned to free screens in start order.
    public var videos: [Video]?
    /// `queue` (default) or `drop`: a video with no free screen waits or is dropped.
    public var waitingVideo: String?
    /// `hold` (default) or `loop` after a video's last frame.
    public var end: String?
    /// Convert frames as the app's Metal kernel does (default false).
    public var appKernel: Bool?
  }

  /// One tap.
  public struct Tap: Decodable, Sendable {
    /// τ of the tap, seconds.
    public var t: Double
    /// Tap pixel u (right), output pixels.
    public var u: Double
    /// Tap pixel v (down), output pixels.
    public var v: Double
  }

  /// One remote video.
  public struct Video: Decodable, Sendable {
    /// Path to a `.y4m` file.
    public var path: String
    /// τ when the remote user joins (default 0); video time = τ − start.
    public var start: Double?
    /// `full` or `limited`; overrides the file's `XCOLORRANGE`.
    public var range: String?
  }

  /// The checked section.
  public struct Configuration: SessionConfiguration {
    /// The displayer session's configuration.
    public var displayers: DisplayerConfiguration

    /// Makes a `DisplayerSession` (its videos opened now).
    public func makeSession(_ setup: SessionSetup) throws -> any Session {
      try DisplayerSession(configuration: displayers, sceneFile: setup.sceneFilePath)
    }

    /// Taps are output pixels: each moves to the pixel that shows the same camera ray.
    public func resized(from old: CameraIntrinsics, to new: CameraIntrinsics) -> Configuration {
      var copy = self
      copy.displayers.taps = displayers.taps.map { tap in
        var moved = tap
        moved.u = (tap.u - old.cx) / old.fx * new.fx + new.cx
        moved.v = (tap.v - old.cy) / old.fy * new.fy + new.cy
        return moved
      }
      return copy
    }
  }

  /// Creates the kind.
  public init() {}

  /// `displayers`.
  public var key: String { "displayers" }

  /// The section's known keys (others become warnings).
  public var schema: [String: Set<String>] {
    [
      "displayers": ["taps", "orientation", "videos", "waitingVideo", "end", "appKernel"],
      "displayers.taps[]": ["t", "u", "v"],
      "displayers.videos[]": ["path", "start", "range"],
    ]
  }

  /// Opens each video now (header checked), so a missing or bad file fails before any output
  /// is written; the videos join the scene's inputs.
  /// - Throws: `InputError` for non-finite taps (`displayers.taps[i]`), a tap before τ = 0
  ///   (`displayers.taps[i].t`) and unknown choices;
  ///   the videos' located errors (`.missingInput` naming `displayers.videos[i].path`).
  public func configure(_ section: Section, in scene: inout SceneSection) throws
    -> any SessionConfiguration
  {
    let taps = try section.taps.enumerated().map { i, tap in
      guard tap.t.isFinite, tap.u.isFinite, tap.v.isFinite else {
        throw scene.error("displayers.taps[\(i)]", "t, u and v must be finite")
      }
      // As every other action time: τ runs from 0, so an earlier tap would never happen.
      guard tap.t >= 0 else {
        throw scene.error("displayers.taps[\(i)].t", "must be ≥ 0 s (got \(tap.t))")
      }
      return DisplayerTap(t: tap.t, u: tap.u, v: tap.v)
    }
    let videos = try (section.videos ?? []).enumerated().map { i, video in
      let videoPath = try scene.resolvePath(video.path, field: "displayers.videos[\(i)].path")
      _ = try scene.reading(videoPath, field: "displayers.videos[\(i)].path") {
        try Y4MReader(path: videoPath)
      }
      return DisplayerVideo(
        path: videoPath, start: video.start ?? 0,
        range: try scene.choice(
          video.range, YCbCrRange.self, field: "displayers.videos[\(i)].range"))
    }
    let displayers = DisplayerConfiguration(
      taps: taps,
      orientation: try scene.choice(
        section.orientation, DisplayerOrientation.self, field: "displayers.orientation")
        ?? .hitTransform,
      videos: videos,
      waitingVideo: try scene.choice(
        section.waitingVideo, DisplayerWaitingVideo.self, field: "displayers.waitingVideo")
        ?? .queue,
      end: try scene.choice(section.end, VideoEndBehavior.self, field: "displayers.end") ?? .hold,
      appKernel: section.appKernel ?? false)
    scene.inputPaths += videos.map(\.path)
    return Configuration(displayers: displayers)
  }
}
