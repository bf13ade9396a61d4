import ARFormats
import ARMath
import ARTestSupport
import Foundation
import Testing

@Suite struct CameraTrackReadingTests {
  @Test("the TUM fr1_xyz ground truth has 3000 poses over 30.09 s")
  func tumGroundTruth() throws {
    let track = try CameraTrack.read(path: Fixtures.path("tracks/tum_fr1_xyz_groundtruth.txt"))
    #expect(track.format == .tum)
    #expect(track.poses.count == 3000)
    #expect(track.poses[0].timeSeconds == 1_305_031_098.6659)
    #expect(track.warnings.isEmpty)
    // First line: 1.3563 0.6305 1.6380 in a z-up world → ARKit (x, z, −y).
    let p = track.poses[0].worldFromCamera.translation
    #expect(p.isApproximatelyEqual(to: Vector3(1.3563, 1.6380, -0.6305), absoluteTolerance: 1e-12))
  }

  @Test("the ARKit data logger file reads silently: its 6-digit rotations stay below 1e-5")
  func arkitDataLogger() throws {
    let track = try CameraTrack.read(path: Fixtures.path("tracks/arkit_datalogger_camera_pose.txt"))
    #expect(track.format == .arkit)
    #expect(track.poses.count == 2762)
    #expect(track.warnings.isEmpty)
    // ns 105230574092166 → s; ARKit frames are kept as they are (tx, ty, tz of line 2).
    #expect(track.poses[0].timeSeconds.isApproximatelyEqual(to: 105_230.574_092_166))
    let p = track.poses[0].worldFromCamera.translation
    #expect(
      p.isApproximatelyEqual(to: Vector3(-0.042176, 0.137348, 0.463405), absoluteTolerance: 1e-12))
    let xAxis = track.poses[0].worldFromCamera.transformDirection(.unitX)
    #expect(
      xAxis.isApproximatelyEqual(
        to: Vector3(-0.019570, -0.973180, 0.229209), absoluteTolerance: 1e-5))
  }

  @Test("KITTI: world = camera 0 with y down becomes ARKit's; times come from the times file")
  func kitti() throws {
    let options = TrackReadOptions(timesPath: Fixtures.path("tracks/kitti_sample_times.txt"))
    let track = try CameraTrack.read(
      path: Fixtures.path("tracks/kitti_sample_poses.txt"), options: options)
    #expect(track.format == .kitti)
    #expect(track.warnings.isEmpty)
    #expect(track.poses.map(\.timeSeconds) == [0, 0.1037359, 0.2073381])
    // Pose 0 is the identity in both conventions.
    #expect(track.poses[0].worldFromCamera.matrix.isApproximatelyEqual(to: .identity))
    // 1 m along OpenCV +Z (forward) is 1 m along ARKit −Z.
    let moved = track.poses[1].worldFromCamera
    #expect(moved.translation.isApproximatelyEqual(to: Vector3(0, 0, -1)))
    #expect(moved.forward.isApproximatelyEqual(to: Vector3(0, 0, -1)))
    // Ry(+90°) about KITTI's down axis turns the camera right: it now looks along +X.
    let turned = track.poses[2].worldFromCamera
    #expect(turned.translation.isApproximatelyEqual(to: Vector3(0.5, 0, -2)))
    #expect(turned.forward.isApproximatelyEqual(to: Vector3(1, 0, 0)))
    #expect(turned.transformDirection(.unitY).isApproximatelyEqual(to: Vector3(0, 1, 0)))
  }

  @Test("times too far from 0 for Double to step them warn once; Unix times do not")
  func coarseTimes() throws {
    let identity = "0 0 0 0 0 0 1"
    func track(_ times: [String]) throws -> CameraTrack {
      let text = times.map { $0 + " " + identity }.joined(separator: "\n") + "\n"
      return try CameraTrack.read(
        bytes: Array(text.utf8), file: "t.txt", options: TrackReadOptions(format: .tum))
    }
    let far = try track(["1e300", "1.000000000000001e300"])
    #expect(far.warnings.count == 1)
    #expect(
      far.warnings.first?.contains(
        "the times reach 1.000000000000001e+300 s, where a Double resolves only") == true,
      "\(far.warnings)")
    // 2³⁹ s: the ulp is 2⁻¹³ s > 10⁻⁴ s; 2³⁸ s: 2⁻¹⁴ s, below it.
    #expect(try track(["549755813888", "549755813889"]).warnings.count == 1)
    #expect(try track(["274877906944", "274877906945"]).warnings.isEmpty)
    #expect(try track(["1305031098.6659", "1305031098.6759"]).warnings.isEmpty)
  }

  @Test("KITTI without a times file is 10 Hz from 0 with a warning")
  func kittiWithoutTimes() throws {
    let track = try CameraTrack.read(path: Fixtures.path("tracks/kitti_sample_poses.txt"))
    #expect(track.poses.map(\.timeSeconds) == [0, 0.1, 0.2])
    #expect(track.warnings.count == 1)
    #expect(track.warnings.first?.contains("10 Hz") == true)
  }

  @Test("EuRoC: scalar-first quaternions, body pose composed with T_BS, z-up world")
  func euroc() throws {
    let options = TrackReadOptions(sensorPath: Fixtures.path("tracks/euroc_sample_sensor.yaml"))
    let track = try CameraTrack.read(
      path: Fixtures.path("tracks/euroc_sample.csv"), options: options)
    #expect(track.format == .euroc)
    #expect(track.warnings.isEmpty)
    #expect(track.poses[0].timeSeconds.isApproximatelyEqual(to: 1_403_715_524.907_143_168))
    #expect(
      (track.poses[1].timeSeconds - track.poses[0].timeSeconds).isApproximatelyEqual(
        to: 0.005, absoluteTolerance: 1e-6))
    // Body at the origin, identity: the camera is T_BS = Rz(90°), 10 cm along body x.
    // Its OpenCV forward (+Z) is world +Z = up, which ARKit calls +Y; its +X is body +Y,
    // world +Y, ARKit −Z.
    let camera0 = track.poses[0].worldFromCamera
    #expect(camera0.translation.isApproximatelyEqual(to: Vector3(0.1, 0, 0)))
    #expect(camera0.forward.isApproximatelyEqual(to: Vector3(0, 1, 0)))
    #expect(camera0.transformDirection(.unitX).isApproximatelyEqual(to: Vector3(0, 0, -1)))
    // Body at (1, 2, 3) turned Rz(90°) (w first: 0.7071068 0 0 0.7071068): the 10 cm offset
    // along body x is world +y; position (1, 2.1, 3) z-up → ARKit (1, 3, −2.1).
    let camera1 = track.poses[1].worldFromCamera
    #expect(
      camera1.translation.isApproximatelyEqual(to: Vector3(1, 3, -2.1), absoluteTolerance: 1e-7))
    #expect(
      camera1.transformDirection(.unitX).isApproximatelyEqual(
        to: Vector3(-1, 0, 0), absoluteTolerance: 1e-7))
  }

  @Test("EuRoC without a sensor file reads the body pose with a warning")
  func eurocWithoutSensor() throws {
    let track = try CameraTrack.read(path: Fixtures.path("tracks/euroc_sample.csv"))
    #expect(track.poses[0].worldFromCamera.translation.isApproximatelyEqual(to: .zero))
    #expect(track.warnings.count == 1)
  }

  @Test("ARKitScenes .traj: world-to-camera angle-axis is inverted; OpenCV camera, z-up world")
  func arkitScenes() throws {
    let track = try CameraTrack.read(path: Fixtures.path("tracks/arkitscenes_sample.traj"))
    #expect(track.format == .arkitscenes)
    #expect(track.poses.map(\.timeSeconds) == [10, 10.1])
    // Identity w2c: the OpenCV camera looks along world +Z, which is up (ARKit +Y).
    #expect(track.poses[0].worldFromCamera.forward.isApproximatelyEqual(to: Vector3(0, 1, 0)))
    // cameraFromWorld = Rx(90°), t = (0, 0, 2): the camera sits at z-up (0, −2, 0), ARKit
    // (0, 0, 2), and looks level along ARKit −Z, towards the origin, upright.
    let camera = track.poses[1].worldFromCamera
    #expect(camera.translation.isApproximatelyEqual(to: Vector3(0, 0, 2), absoluteTolerance: 1e-12))
    #expect(camera.forward.isApproximatelyEqual(to: Vector3(0, 0, -1), absoluteTolerance: 1e-12))
    #expect(
      camera.transformDirection(.unitY).isApproximatelyEqual(
        to: Vector3(0, 1, 0), absoluteTolerance: 1e-12))
  }

  @Test("ARSim JSON: column-major worldFromCamera in ARKit frames, and its writer round-trips")
  func json() throws {
    let track = try CameraTrack.read(path: Fixtures.path("tracks/arsim_sample.json"))
    #expect(track.format == .json)
    #expect(track.poses.map(\.timeSeconds) == [0, 0.5])
    let pose = track.poses[1].worldFromCamera
    #expect(pose.translation == Vector3(1, 2, 3))
    #expect(pose.forward.isApproximatelyEqual(to: Vector3(-1, 0, 0)))
    let copy = TemporaryFolder("tracks").write(track.jsonText, to: "copy.json")
    let again = try CameraTrack.read(path: copy)
    for (a, b) in zip(track.poses, again.poses) {
      #expect(a.timeSeconds == b.timeSeconds)
      #expect(
        a.worldFromCamera.matrix.isApproximatelyEqual(
          to: b.worldFromCamera.matrix, absoluteTolerance: 1e-15))
    }
  }

  @Test(
    "format detection by extension and column count",
    arguments: [
      ("tum_fr1_xyz_orbslam_kf_mono.txt", TrackFormat.tum),
      ("arkit_datalogger_camera_pose.txt", .arkit),
      ("kitti_sample_poses.txt", .kitti),
      ("euroc_sample.csv", .euroc),
      ("arkitscenes_sample.traj", .arkitscenes),
      ("arsim_sample.json", .json),
    ])
  func detection(name: String, format: TrackFormat) throws {
    #expect(try CameraTrack.detectFormat(path: Fixtures.path("tracks/" + name)) == format)
  }

  @Test("an explicit format overrides detection")
  func explicitFormat() throws {
    let path = TemporaryFolder("tracks").write("0 1 2 3 0 0 0 1\n", to: "track.csv")
    let track = try CameraTrack.read(path: path, options: TrackReadOptions(format: .tum))
    #expect(track.format == .tum)
    #expect(track.poses.count == 1)
  }

  @Test("explicit camera axes and world up replace the format's defaults")
  func explicitConventions() throws {
    let path = TemporaryFolder("tracks").write("0 1 2 3 0 0 0 1\n", to: "track.txt")
    let raw = try CameraTrack.read(
      path: path, options: TrackReadOptions(cameraAxes: .arkit, worldUp: .y))
    #expect(
      raw.poses[0].worldFromCamera
        == RigidTransform(rotation: .identity, translation: Vector3(1, 2, 3)))
    let minusY = try CameraTrack.read(
      path: path, options: TrackReadOptions(cameraAxes: .arkit, worldUp: .minusY))
    #expect(
      minusY.poses[0].worldFromCamera.translation.isApproximatelyEqual(to: Vector3(1, -2, -3)))
  }
}
