import ARScene

/// The viewport camera at any replay time, for sessions that need a moment other than the
/// current tick's (the remote-assist helper's delayed video: the frame it saw at τ_seen).
///
/// The frame loop gives one through `TickContext.cameraHistory`; a session asks
/// `TickContext.viewportCamera(at:)` rather than reaching into the frame loop.
public protocol CameraHistory: Sendable {
  /// The viewport camera (output intrinsics, `worldFromCamera` rolled for the viewport, as
  /// `TickContext.camera`) at replay time `t` (seconds; any τ, not only tick times: the camera
  /// track is interpolated).
  /// - Throws: a located error when `t` is outside the camera track (and the scene does not
  ///   clamp).
  func viewportCamera(at t: Double) throws -> Camera
}
