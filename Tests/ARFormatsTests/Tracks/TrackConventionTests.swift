import ARFormats
import ARMath
import ARTestSupport
import Testing

@Suite struct TrackConventionTests {
  @Test("TUM desk sequence: the camera looks down at the desk (mean forward has world Y < −0.5)")
  func tumLooksDown() throws {
    let track = try CameraTrack.read(path: Fixtures.path("tracks/tum_fr1_xyz_groundtruth.txt"))
    let sum = track.poses.reduce(Vector3.zero) { $0 + $1.worldFromCamera.forward }
    let mean = sum / Double(track.poses.count)
    // SOURCES.md measured the mean OpenCV +Z as (−0.72, 0.02, −0.68) z-up → ARKit y = −0.68.
    #expect(mean.y < -0.5)
    #expect(mean.y.isApproximatelyEqual(to: -0.68, absoluteTolerance: 0.02))
  }

  @Test("ARKit data logger, phone in portrait: the camera's +X points down (world Y < −0.7)")
  func arkitPortrait() throws {
    let track = try CameraTrack.read(path: Fixtures.path("tracks/arkit_datalogger_camera_pose.txt"))
    let sum = track.poses.reduce(Vector3.zero) {
      $0 + $1.worldFromCamera.transformDirection(.unitX)
    }
    let mean = sum / Double(track.poses.count)
    #expect(mean.y < -0.7)
  }
}
