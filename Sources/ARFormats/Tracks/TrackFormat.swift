import ARSupport

/// A camera-track file format. The raw values are the names used in scene files and by
/// `arsim track --format`.
///
/// Conventions per format (Documentation/CameraTracks.md has the details):
/// - `tum`: `t tx ty tz qx qy qz qw`, seconds, camera-to-world, OpenCV camera, world z up.
/// - `arkit`: ARKit data logger, `ns r11 r12 r13 tx r21 r22 r23 ty r31 r32 r33 tz` (3×4
///   row-major `ARCamera.transform`), already ARKit camera and world.
/// - `kitti`: 12 numbers, row-major 3×4 camera-to-world, OpenCV camera, world = camera 0
///   (y down); times from a separate file.
/// - `euroc`: CSV `ns, px, py, pz, qw, qx, qy, qz, …` (scalar first), IMU body pose in a z-up
///   world, composed with the camera's `T_BS` from a sensor.yaml.
/// - `arkitscenes`: `.traj` lines `t ax ay az tx ty tz` (angle-axis radians, metres),
///   world-to-camera, OpenCV camera, world z up.
/// - `json`: ARSim's own `{"format":"arsim-track","version":1,"poses":[…]}` in ARKit frames.
/// - `arcore`: the ARCore data logger's `ARCore_sensor_pose.txt`, `ns qx qy qz qw tx ty tz`,
///   `Frame.getAndroidSensorPose()`: the Android sensor frame in ARCore's y-up world.
public enum TrackFormat: String, CaseIterable, Hashable, Sendable {
  /// TUM RGB-D ground-truth text.
  case tum
  /// The ARKit data logger's `ARKit_camera_pose.txt`.
  case arkit
  /// KITTI odometry poses.
  case kitti
  /// EuRoC MAV ground-truth CSV.
  case euroc
  /// ARKitScenes `.traj`.
  case arkitscenes
  /// ARSim's JSON track.
  case json
  /// The ARCore data logger's `ARCore_sensor_pose.txt`.
  case arcore

  /// The camera axes a file of this format uses unless it or the options say otherwise.
  public var defaultCameraAxes: CameraAxes {
    switch self {
    case .arkit, .json: return .arkit
    case .tum, .kitti, .euroc, .arkitscenes: return .opencv
    case .arcore: return .androidSensor
    }
  }

  /// The world up axis a file of this format uses unless it or the options say otherwise.
  public var defaultWorldUp: WorldUp {
    switch self {
    case .arkit, .json, .arcore: return .y
    case .tum, .euroc, .arkitscenes: return .z
    case .kitti: return .minusY
    }
  }

  /// The column names of one data line (used in error messages), or `[]` for JSON.
  var columnNames: [String] {
    switch self {
    case .tum: return ["timestamp", "tx", "ty", "tz", "qx", "qy", "qz", "qw"]
    case .arkit:
      return ["timestamp"] + Self.matrixColumnNames
    case .kitti: return Self.matrixColumnNames
    case .euroc:
      return [
        "timestamp", "p_RS_R_x", "p_RS_R_y", "p_RS_R_z", "q_RS_w", "q_RS_x", "q_RS_y", "q_RS_z",
      ]
    case .arkitscenes: return ["timestamp", "ax", "ay", "az", "tx", "ty", "tz"]
    case .arcore: return ["timestamp", "qx", "qy", "qz", "qw", "tx", "ty", "tz"]
    case .json: return []
    }
  }

  private static let matrixColumnNames = [
    "r11", "r12", "r13", "tx", "r21", "r22", "r23", "ty", "r31", "r32", "r33", "tz",
  ]
}

/// The axes of the camera frame a track's rotations describe.
public enum CameraAxes: String, CaseIterable, Hashable, Sendable {
  /// OpenCV / computer-vision camera: +X right, +Y down, looks down +Z.
  case opencv
  /// ARKit / OpenGL camera: +X right, +Y up, looks down −Z.
  case arkit
  /// The Android sensor coordinate system of a phone (ARCore's `Frame.getAndroidSensorPose()`):
  /// in the natural (portrait) orientation +X right, +Y up the screen, +Z out of the screen; the
  /// back camera looks down −Z. The ARKit-style camera is this frame turned by Rz(−90°):
  /// camera +X = sensor −Y, +Y = sensor +X, +Z = sensor +Z, i.e. the landscape image readout
  /// of a back camera mounted at the usual 90° `SENSOR_ORIENTATION` (the axes ARCore's
  /// `Camera.getPose()` gives, and ARKit's camera on an iPhone).
  case androidSensor
}

/// Which axis of a track's world points up (against gravity).
public enum WorldUp: String, CaseIterable, Hashable, Sendable {
  /// +Y up: ARKit's world already.
  case y
  /// +Z up (motion-capture rooms, TUM and EuRoC): converted by Rx(−90°), `(x, y, z) ↦ (x, z, −y)`.
  case z
  /// +Y down and +Z forward (a world that is an OpenCV camera, e.g. KITTI's camera 0):
  /// converted by Rx(180°), `(x, y, z) ↦ (x, −y, −z)`.
  case minusY
}
