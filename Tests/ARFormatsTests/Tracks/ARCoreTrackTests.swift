import ARFormats
import ARMath
import ARTestSupport
import Testing

/// The ARCore data logger's sensor poses (`Frame.getAndroidSensorPose()`): told from TUM by
/// where the unit quaternion is, converted to the ARKit-style camera by Rz(−90°).
@Suite("ARCore data-logger tracks")
struct ARCoreTrackTests {
  @Test("the logger's file is detected as arcore and reads whole; TUM stays TUM")
  func detection() throws {
    let path = Fixtures.path("tracks/arcore_datalogger_sensor_pose.txt")
    #expect(try CameraTrack.detectFormat(path: path) == .arcore)
    let track = try CameraTrack.read(path: path)
    #expect(track.format == .arcore)
    #expect(track.poses.count == 666)  // SOURCES.md: 666 poses
    // The first data line's integer nanoseconds, split exactly.
    #expect(track.poses[0].timeSeconds == 15492 + 0.865785374)
    #expect(
      try CameraTrack.detectFormat(path: Fixtures.path("tracks/tum_fr1_xyz_groundtruth.txt"))
        == .tum)
  }

  @Test("a sensor pose becomes the camera turned by Rz(−90°): camera +X = sensor −Y")
  func conversion() throws {
    // Sensor axes = world axes (identity), at (1, 2, 3) m.
    let path = TemporaryFolder("tracks").write(
      "0 0 0 0 1 1 2 3\n100000000 0 0 0 1 1 2 3\n", to: "s.txt")
    let pose = try CameraTrack.read(path: path).poses[0].worldFromCamera
    #expect(pose.translation.isApproximatelyEqual(to: Vector3(1, 2, 3), absoluteTolerance: 1e-12))
    let x = pose.transformDirection(Vector3(1, 0, 0))
    let y = pose.transformDirection(Vector3(0, 1, 0))
    #expect(x.isApproximatelyEqual(to: Vector3(0, -1, 0), absoluteTolerance: 1e-12))
    #expect(y.isApproximatelyEqual(to: Vector3(1, 0, 0), absoluteTolerance: 1e-12))
    #expect(pose.forward.isApproximatelyEqual(to: Vector3(0, 0, -1), absoluteTolerance: 1e-12))
  }

  @Test("the recorded phone, held in portrait, has camera +X pointing down, as on an iPhone")
  func portraitRecording() throws {
    let track = try CameraTrack.read(
      path: Fixtures.path("tracks/arcore_datalogger_sensor_pose.txt"))
    var down = 0.0
    for pose in track.poses {
      down += pose.worldFromCamera.transformDirection(Vector3(1, 0, 0)).y
    }
    // Mean sensor +Y · world up is 0.92 (computed from the quaternions with Python).
    #expect(abs(down / Double(track.poses.count) + 0.9227) < 1e-3)
  }

  @Test("8 columns that fit both layouts ask for --format; --format arcore reads them")
  func ambiguous() throws {
    // Time 0 (an integer), (0, 0, 0, 1) in columns 2–5 and (1, 0, 0, 0) in columns 5–8.
    let path = TemporaryFolder("tracks").write("0 0 0 0 1 0 0 0\n", to: "both.txt")
    let error = #expect(throws: TrackReadError.self) { try CameraTrack.read(path: path) }
    #expect(error?.location.line == 1)
    #expect(error?.reason.contains("--format tum or --format arcore") == true)
    var options = TrackReadOptions()
    options.format = .arcore
    #expect(try CameraTrack.read(path: path, options: options).poses.count == 1)
  }
}
