import ARFormats
import ARSimCLI
import ARTestSupport
import Foundation
import Testing

@Suite struct TrackCommandTests {
  /// Runs `arsim ARGUMENTS` in process; returns the exit code, stdout and stderr.
  static func run(_ arguments: [String]) -> (Int32, String, String) {
    let (status, output) = runCommand(arguments)
    return (status, output.standardOutput, output.standardError)
  }

  /// The value of `name:` in `track info` output.
  static func value(_ name: String, in text: String) -> String? {
    text.split(separator: "\n").first { $0.hasPrefix(name + ":") }.map {
      $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
    }
  }

  @Test("CameraTracks.md's track info sample is what the command prints")
  func documentedSample() throws {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let doc = try String(
      contentsOf: repository.appendingPathComponent("Documentation/CameraTracks.md"),
      encoding: .utf8)
    let command = "$ arsim track info Tests/__Fixtures__/tracks/tum_fr1_xyz_groundtruth.txt\n"
    let sample = try #require(
      doc.components(separatedBy: command).dropFirst().first?.components(separatedBy: "\n\n")
        .first)
    let (code, out, _) = Self.run([
      "track", "info", Fixtures.path("tracks/tum_fr1_xyz_groundtruth.txt"),
    ])
    #expect(code == 0)
    #expect(out == sample + "\n", "\(out)")
  }

  @Test("track info on TUM fr1_xyz: 3000 poses over 30.09 s")
  func infoTUM() {
    let (code, out, err) = Self.run([
      "track", "info", Fixtures.path("tracks/tum_fr1_xyz_groundtruth.txt"),
    ])
    #expect(code == 0)
    #expect(err.isEmpty)
    #expect(Self.value("format", in: out) == "tum")
    #expect(Self.value("poses", in: out) == "3000")
    #expect(Self.value("duration", in: out) == "30.09 s")
    #expect(out.contains("\nduration:    30.09 s\n"))
  }

  @Test("track info: warnings go to standard error with the arsim track: prefix, not stdout")
  func infoWarnings() {
    let (code, out, err) = Self.run([
      "track", "info", Fixtures.path("tracks/kitti_sample_poses.txt"), "--format", "kitti",
    ])
    #expect(code == 0)
    #expect(Self.value("format", in: out) == "kitti")
    #expect(!out.contains("warning"), "\(out)")
    #expect(
      err
        == "arsim track: warning: no times file given: KITTI poses are assumed 0.1 s apart (10 Hz)\n"
    )
  }

  @Test("track info on the ARKit data logger: 2762 poses over 46.0 s, path about 23.2 m")
  func infoARKit() throws {
    let (code, out, _) = Self.run([
      "track", "info", Fixtures.path("tracks/arkit_datalogger_camera_pose.txt"),
    ])
    #expect(code == 0)
    #expect(Self.value("poses", in: out) == "2762")
    let duration = try #require(
      Self.value("duration", in: out)?.split(separator: " ").first.flatMap { Double($0) })
    #expect(duration.isApproximatelyEqual(to: 46.0, absoluteTolerance: 0.05))
    let path = try #require(
      Self.value("path length", in: out)?.split(separator: " ").first.flatMap { Double($0) })
    #expect(path.isApproximatelyEqual(to: 23.2, absoluteTolerance: 0.05))
    #expect(Self.value("mean rate", in: out) == "60.00 Hz")
  }

  @Test(
    "convert to TUM and read back reproduces every pose to 1e-6 m and 1e-6 rad",
    arguments: [
      ("tum_fr1_xyz_groundtruth.txt", [String]()),
      ("tum_fr1_xyz_orbslam_kf_mono.txt", []),
      ("arkit_datalogger_camera_pose.txt", []),
      ("kitti_sample_poses.txt", ["--times", Fixtures.path("tracks/kitti_sample_times.txt")]),
      ("euroc_sample.csv", ["--sensor", Fixtures.path("tracks/euroc_sample_sensor.yaml")]),
      ("arkitscenes_sample.traj", []),
      ("arsim_sample.json", []),
    ])
  func roundTrip(name: String, flags: [String]) throws {
    let input = Fixtures.path("tracks/" + name)
    let output = TemporaryFolder("tracks").path + "/converted.txt"
    let (code, _, err) = Self.run(["track", "convert", input, "--to", "tum", output] + flags)
    #expect(code == 0, "\(err)")
    var options = TrackReadOptions()
    if flags.first == "--times" { options.timesPath = flags[1] }
    if flags.first == "--sensor" { options.sensorPath = flags[1] }
    let original = try CameraTrack.read(path: input, options: options)
    let converted = try CameraTrack.read(path: output)
    #expect(converted.format == .tum)
    #expect(converted.poses.count == original.poses.count)
    for (a, b) in zip(original.poses, converted.poses) {
      #expect(a.timeSeconds == b.timeSeconds)
      #expect(
        a.worldFromCamera.translation.isApproximatelyEqual(
          to: b.worldFromCamera.translation, absoluteTolerance: 1e-6))
      #expect(a.worldFromCamera.rotation.angularDistance(to: b.worldFromCamera.rotation) <= 1e-6)
    }
  }

  @Test("bad flags are usage errors (64); bad data 65; a missing file 66")
  func exitCodes() throws {
    let tum = Fixtures.path("tracks/tum_fr1_xyz_groundtruth.txt")
    #expect(Self.run(["track"]).0 == 64)
    #expect(Self.run(["track", "info"]).0 == 64)
    #expect(Self.run(["track", "info", tum, "--format", "vrml"]).0 == 64)
    #expect(Self.run(["track", "info", tum, "--bogus"]).0 == 64)
    #expect(Self.run(["track", "convert", tum, "--to", "kitti", "out.txt"]).0 == 64)
    #expect(Self.run(["track", "convert", tum, "out.txt"]).0 == 64)
    let bad = TemporaryFolder("tracks").write("1 0 0 0 0 0 0 1\n2 0 0 0 0 0 0\n", to: "bad.txt")
    let (code, _, err) = Self.run(["track", "info", bad])
    #expect(code == 65)
    #expect(
      err == "arsim track: error: \(bad):2: field 'qw': expected 8 columns for tum, found 7\n")
    #expect(Self.run(["track", "info", bad + ".absent"]).0 == 66)
  }
}
