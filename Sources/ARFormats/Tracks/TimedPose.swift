import ARMath
import ARSupport

/// A camera pose at a time.
public struct TimedPose: Hashable, Sendable {
  /// Seconds, on the track file's own clock (Unix time for TUM, device uptime for ARKit, …).
  public var timeSeconds: Double
  /// Camera-to-world in ARKit frames: world right-handed, metres, +Y up; camera +X right,
  /// +Y up, looking down −Z (`ARCamera.transform`).
  public var worldFromCamera: RigidTransform

  /// Creates a timed pose.
  public init(timeSeconds: Double, worldFromCamera: RigidTransform) {
    self.timeSeconds = timeSeconds
    self.worldFromCamera = worldFromCamera
  }
}
