import ARSupport

/// How to read a camera track: format override, side files and frame conventions.
public struct TrackReadOptions: Hashable, Sendable {
  /// The format; `nil` detects it from the extension and the first data line.
  public var format: TrackFormat?
  /// KITTI only: a file of one time in seconds per line, line i for pose i. Without it KITTI
  /// poses get times 0, 0.1, 0.2 … s (10 Hz) and the track carries a warning.
  public var timesPath: String?
  /// EuRoC only: the camera's `sensor.yaml`, whose `T_BS` (camera in the IMU body frame) gives
  /// `worldFromCamera = worldFromBody · T_BS`. Without it the poses are the body's (warning).
  public var sensorPath: String?
  /// The camera axes of the file's rotations; `nil` uses the format's default (or what an
  /// ARSim-written TUM file declares in its header).
  public var cameraAxes: CameraAxes?
  /// The file's world up axis; `nil` uses the format's default (or the header's declaration).
  public var worldUp: WorldUp?

  /// Creates options; every field defaults to "detect / the format's default".
  public init(
    format: TrackFormat? = nil, timesPath: String? = nil, sensorPath: String? = nil,
    cameraAxes: CameraAxes? = nil, worldUp: WorldUp? = nil
  ) {
    self.format = format
    self.timesPath = timesPath
    self.sensorPath = sensorPath
    self.cameraAxes = cameraAxes
    self.worldUp = worldUp
  }
}
