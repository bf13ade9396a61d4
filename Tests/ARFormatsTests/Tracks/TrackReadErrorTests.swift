import ARFormats
import ARMath
import ARSupport
import ARTestSupport
import Foundation
import Testing

@Suite struct TrackReadErrorTests {
  /// Reads `text` as a file called `name` and returns the error's text after the file path.
  static func errorText(
    _ text: String, name: String = "track.txt", options: TrackReadOptions = .init()
  )
    throws -> (TrackReadError, String)
  {
    let path = TemporaryFolder("tracks").write(text, to: name)
    do {
      _ = try CameraTrack.read(path: path, options: options)
    } catch let error as TrackReadError {
      #expect(error.location.file == path)
      return (error, String(error.description.dropFirst(path.count)))
    }
    Issue.record("no error for \(text.prefix(80))")
    return (TrackReadError(file: path, "none"), "")
  }

  static let good = "1.0 0 0 0 0 0 0 1\n"

  @Test(
    "each validation case names line and field",
    arguments: [
      // wrong column count: the first missing column is named
      (good + "2.0 0 0 0 0 0 1\n", ":2: field 'qw': expected 8 columns for tum, found 7"),
      (good + "2.0 0 0 0 0 0 0 1 9\n", ":2: field 'column 9': expected 8 columns for tum, found 9"),
      (good + "2.0 0 zero 0 0 0 0 1\n", ":2: field 'ty': 'zero' is not a number"),
      (good + "2.0 0 0 nan 0 0 0 1\n", ":2: field 'tz': 'nan' is not a finite number"),
      (good + "2.0 0 0 0 0 0 0 inf\n", ":2: field 'qw': 'inf' is not a finite number"),
      (
        good + "1.0 0 0 0 0 0 0 1\n",
        ":2: field 'timestamp': time 1.0 s is not after the previous pose's 1.0 s (line 1)"
      ),
      (good + "0.5 0 0 0 0 0 0 1\n", ":2: field 'timestamp': time 0.5 s is not after"),
      (
        "# header\n\n" + good + "2.0 0 0 0 0 0 0 1.01\n",
        ":4: field 'qx qy qz qw': quaternion norm 1.01 is not 1"
      ),
      ("# only a comment\n\n", ": the track has no poses"),
      ("", ": the track has no poses"),
    ])
  func tumCases(text: String, expected: String) throws {
    let (error, message) = try Self.errorText(text)
    #expect(error.kind == .badData)
    #expect(message.hasPrefix(expected), "\(message)")
  }

  @Test("a quaternion off unit length by less than 1e-3 is normalised silently")
  func quaternionNormalised() throws {
    let path = TemporaryFolder("tracks").write("1 0 0 0 0 0 0 1.0005\n", to: "q.txt")
    let track = try CameraTrack.read(path: path)
    #expect(track.warnings.isEmpty)
    #expect(
      track.poses[0].worldFromCamera.rotation.norm.isApproximatelyEqual(
        to: 1, absoluteTolerance: 1e-15))
  }

  /// An ARKit data-logger line with `r11` replaced.
  static func arkitLine(ns: Int, r11: String) -> String {
    "\(ns) \(r11) 0 0 0.5 0 1 0 0.25 0 0 1 -1 \n"
  }

  @Test("a rotation off orthonormal by more than 1e-2 is an error on its line")
  func rotationRejected() throws {
    let text =
      "# header\n" + Self.arkitLine(ns: 1_000, r11: "1") + Self.arkitLine(ns: 2_000, r11: "1.02")
    let (error, message) = try Self.errorText(text)
    #expect(error.location.line == 3)
    #expect(error.location.field == "r11 … r33")
    #expect(message.contains("rotation is not orthonormal"), "\(message)")
  }

  @Test("a rotation off orthonormal by 1e-5…1e-2 is re-orthonormalised with one warning")
  func rotationRepaired() throws {
    let text = Self.arkitLine(ns: 1_000, r11: "1.001") + Self.arkitLine(ns: 2_000, r11: "1.0001")
    let path = TemporaryFolder("tracks").write(text, to: "track.txt")
    let track = try CameraTrack.read(path: path)
    #expect(track.poses[0].timeSeconds == 1e-6)
    #expect(track.poses[1].worldFromCamera.translation == Vector3(0.5, 0.25, -1))
    #expect(track.warnings.count == 1)
    #expect(track.warnings.first?.hasPrefix("re-orthonormalised 2 rotation(s)") == true)
    #expect(track.warnings.first?.contains("at line 1") == true)
    #expect(
      track.poses[0].worldFromCamera.rotation.isApproximatelyEqual(
        to: .identity, absoluteTolerance: 1e-12))
  }

  @Test("a missing file is missing input")
  func missingFile() throws {
    let path = TemporaryFolder("tracks").path + "/absent.txt"
    #expect(throws: TrackReadError.self) { try CameraTrack.read(path: path) }
    do {
      _ = try CameraTrack.read(path: path, options: TrackReadOptions(format: .tum))
    } catch let error as TrackReadError {
      #expect(error.kind == .missingInput)
      #expect(error.location.file == path)
    }
  }

  @Test("a 20 MB line is reported on its line, not buffered")
  func hugeLine() throws {
    let text = Self.good + String(repeating: "1", count: 20 << 20) + "\n"
    let (error, message) = try Self.errorText(text, options: TrackReadOptions(format: .tum))
    #expect(error.location.line == 2)
    #expect(message.contains("longer than 65536 bytes"), "\(message)")
  }

  @Test("an undetectable format names the column count")
  func undetectable() throws {
    let (error, message) = try Self.errorText("# x\n1 2 3 4 5\n")
    #expect(error.location.line == 2)
    #expect(message.contains("from 5 columns"))
  }

  @Test("KITTI times: a count mismatch and a non-increasing time are errors in the times file")
  func kittiTimes() throws {
    let times = TemporaryFolder("tracks").write("0\n0.1\n", to: "times.txt")
    let poses = Fixtures.path("tracks/kitti_sample_poses.txt")
    #expect(throws: TrackReadError.self) {
      try CameraTrack.read(path: poses, options: TrackReadOptions(timesPath: times))
    }
    let backwards = TemporaryFolder("tracks").write("0\n0.2\n0.1\n", to: "times.txt")
    do {
      _ = try CameraTrack.read(path: poses, options: TrackReadOptions(timesPath: backwards))
      Issue.record("no error")
    } catch let error as TrackReadError {
      #expect(error.location == InputLocation(file: backwards, line: 3, field: "time"))
    }
  }

  @Test("EuRoC sensor.yaml with 15 numbers is an error on the data line")
  func eurocSensor() throws {
    let yaml =
      "T_BS:\n  cols: 4\n  rows: 4\n  data: [1, 0, 0, 0,\n 0, 1, 0, 0,\n 0, 0, 1, 0,\n 0, 0, 1]\n"
    let sensor = TemporaryFolder("tracks").write(yaml, to: "sensor.yaml")
    do {
      _ = try CameraTrack.read(
        path: Fixtures.path("tracks/euroc_sample.csv"),
        options: TrackReadOptions(sensorPath: sensor))
      Issue.record("no error")
    } catch let error as TrackReadError {
      #expect(error.location == InputLocation(file: sensor, line: 4, field: "T_BS.data"))
      #expect(error.reason.contains("found 15"))
    }
  }

  @Test("JSON: a missing field names the pose")
  func jsonErrors() throws {
    let text =
      #"{"format":"arsim-track","version":1,"poses":[{"t":0,"worldFromCamera":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]},{"t":1}]}"#
    let (error, _) = try Self.errorText(text, name: "track.json")
    #expect(error.location.field == "poses[1].worldFromCamera")
  }
}
