import ARFormats
import ARTestSupport
import Testing

/// A times or sensor file given with a track format that does not read it is said, not
/// silently ignored.
@Suite struct UnusedSideFileTests {
  @Test("times on a TUM or JSON track and a sensor file on a KITTI track are warned about")
  func warned() throws {
    let times = Fixtures.path("tracks/kitti_sample_times.txt")
    let sensor = Fixtures.path("tracks/euroc_sample_sensor.yaml")
    let tum = try CameraTrack.read(
      path: Fixtures.path("tracks/tum_fr1_xyz_groundtruth.txt"),
      options: TrackReadOptions(timesPath: times, sensorPath: sensor))
    #expect(tum.warnings.contains { $0.contains("times file") && $0.contains("this track is tum") })
    #expect(tum.warnings.contains { $0.contains("sensor file") && $0.contains("only EuRoC") })
    let json = try CameraTrack.read(
      path: Fixtures.path("tracks/arsim_sample.json"), options: TrackReadOptions(timesPath: times))
    #expect(json.warnings.contains { $0.contains("times file") })
    let kitti = try CameraTrack.read(
      path: Fixtures.path("tracks/kitti_sample_poses.txt"),
      options: TrackReadOptions(format: .kitti, timesPath: times, sensorPath: sensor))
    #expect(!kitti.warnings.contains { $0.contains("times file") })
    #expect(kitti.warnings.contains { $0.contains("sensor file") })
  }

  @Test("the side files a format reads give no such warning")
  func used() throws {
    let euroc = try CameraTrack.read(
      path: Fixtures.path("tracks/euroc_sample.csv"),
      options: TrackReadOptions(sensorPath: Fixtures.path("tracks/euroc_sample_sensor.yaml")))
    #expect(!euroc.warnings.contains { $0.contains("is not read") })
  }
}
