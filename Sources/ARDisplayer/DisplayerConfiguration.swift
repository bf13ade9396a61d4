import ARFormats
import ARSession
import ARSupport

/// A tap on the screen of the on-site device (video-with-ARKit app).
public struct DisplayerTap: Hashable, Sendable {
  /// Replay time τ of the tap, seconds (DESIGN §3).
  public var t: Double
  /// Horizontal output-pixel coordinate (origin top-left, u right, pixel centres at integers).
  public var u: Double
  /// Vertical output-pixel coordinate (v down).
  public var v: Double

  /// Creates a tap.
  public init(t: Double, u: Double, v: Double) {
    self.t = t
    self.u = u
    self.v = v
  }
}

/// How a placed displayer is oriented.
public enum DisplayerOrientation: String, Hashable, Sendable, CaseIterable {
  /// The hit's full `worldTransform` (the original 2018 app: `rootNode.simdTransform =
  /// result.worldTransform`): the plane anchor's rotation at the hit point, so on a floor the
  /// screen faces the anchor's +Z, possibly away from the camera.
  case hitTransform
  /// The hit position with a yaw about world +Y equal to the camera's heading (the newer
  /// AgoraIO/Advanced-Video app: `rotation = (0, 1, 0, camera.eulerAngles.y)`), so the screen's
  /// +Z faces back toward the camera.
  case faceCamera
}

/// What happens to a remote video that starts while no placed screen is free.
public enum DisplayerWaitingVideo: String, Hashable, Sendable, CaseIterable {
  /// It waits, in start order, for the next placed screen (the newer app's `undisplayedUsers`).
  /// The default, so videos present from τ = 0 show on the first screens tapped.
  case queue
  /// It is never shown (the original app's `didJoinedOfUid` returns when
  /// `unusedScreenNodes` is empty); an event `displayer-video-dropped` is raised.
  case drop
}

/// A remote user's video, read from a YUV4MPEG2 file.
public struct DisplayerVideo: Hashable, Sendable {
  /// Path of the `.y4m` file.
  public var path: String
  /// τ at which the remote user joins and its stream starts, seconds (default 0). The frame
  /// shown at τ is the one at video time τ − start: a live stream runs whether shown or not.
  public var start: Double
  /// A range that overrides the header's (`XCOLORRANGE`, absent = limited); `nil` = header.
  public var range: YCbCrRange?

  /// Creates a video.
  public init(path: String, start: Double = 0, range: YCbCrRange? = nil) {
    self.path = path
    self.start = start
    self.range = range
  }
}

/// The scene's `displayers` block.
public struct DisplayerConfiguration: Hashable, Sendable {
  /// Taps, handled in τ order whatever their order here (taps at the same τ in list order).
  public var taps: [DisplayerTap]
  /// Orientation of placed displayers.
  public var orientation: DisplayerOrientation
  /// Remote videos, assigned to free screens in start order (list order for equal starts).
  public var videos: [DisplayerVideo]
  /// What a video that starts while no screen is free does.
  public var waitingVideo: DisplayerWaitingVideo
  /// What a video shows after its last frame.
  public var end: VideoEndBehavior
  /// Whether to convert frames as the app's Metal kernel does (`YCbCrConversion.appKernel`).
  public var appKernel: Bool

  /// Creates a configuration.
  public init(
    taps: [DisplayerTap], orientation: DisplayerOrientation = .hitTransform,
    videos: [DisplayerVideo] = [], waitingVideo: DisplayerWaitingVideo = .queue,
    end: VideoEndBehavior = .hold, appKernel: Bool = false
  ) {
    self.taps = taps
    self.orientation = orientation
    self.videos = videos
    self.waitingVideo = waitingVideo
    self.end = end
    self.appKernel = appKernel
  }
}
