import ARFormats
import ARSupport
import ARTestSupport
import Foundation
import Testing

/// `CameraTrack.read(bytes:file:options:)`: the fuzz targets read tracks in memory; it must read
/// every line-based fixture exactly as the file reader does, errors included.
@Suite struct TrackFromMemoryTests {
  @Test(
    "each line-based fixture reads the same from memory as from its file",
    arguments: [
      ("tum_fr1_xyz_groundtruth.txt", TrackFormat.tum),
      ("arkit_datalogger_camera_pose.txt", .arkit), ("kitti_sample_poses.txt", .kitti),
      ("euroc_sample.csv", .euroc), ("arkitscenes_sample.traj", .arkitscenes),
      ("arcore_datalogger_sensor_pose.txt", .arcore),
    ])
  func sameAsFile(name: String, format: TrackFormat) throws {
    let path = Fixtures.path("tracks/" + name)
    let options = TrackReadOptions(format: format)
    let fromFile = try CameraTrack.read(path: path, options: options)
    let bytes = try FileIO.read(path, maximumBytes: 64 << 20)
    let fromMemory = try CameraTrack.read(bytes: bytes, file: path, options: options)
    #expect(fromMemory == fromFile)
    #expect(fromMemory.poses.count >= 2)
  }

  @Test("errors from memory name the file and line as the file reader's do")
  func sameErrors() throws {
    let temporary = TemporaryFolder("track-memory")
    defer { temporary.remove() }
    let folder = temporary.path
    let cases = [
      "# comment\r\n\n0 0 0 0 0 0 0 1\n1 0 0 nan 0 0 0 1\n",
      "\u{FEFF}0 0 0 0 0 0 0 1\n0 0 0 0 0 0 0 1",
      "", String(repeating: "#", count: 70_000),
    ]
    for text in cases {
      let path = folder + "/t.txt"
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      let options = TrackReadOptions(format: .tum)
      let fromFile = Result { try CameraTrack.read(path: path, options: options) }
      let fromMemory = Result {
        try CameraTrack.read(bytes: Array(text.utf8), file: path, options: options)
      }
      #expect("\(fromFile)" == "\(fromMemory)", "\(text.prefix(40))")
    }
  }
}
