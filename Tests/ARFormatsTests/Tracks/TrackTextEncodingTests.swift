import ARFormats
import ARMath
import ARTestSupport
import Foundation
import Testing

/// Text-level details of track files: a leading byte-order mark, the format-detection message.
@Suite struct TrackTextEncodingTests {
  /// The UTF-8 byte-order mark Windows editors put at the start of a file.
  static let byteOrderMark = "\u{FEFF}"

  @Test(
    "a track file starting with a UTF-8 byte-order mark reads like one without",
    arguments: [
      // Detected as TUM from its first data line.
      ("bom.txt", "1305031098.6659 1 2 3 0 0 0 1\n1305031098.7 1 2 3 0 0 0 1\n"),
      // A comment first: the mark sits before the '#'.
      ("bom-comment.txt", "# timestamp tx ty tz qx qy qz qw\n1305031098.6659 1 2 3 0 0 0 1\n"),
    ])
  func byteOrderMark(name: String, text: String) throws {
    let path = TemporaryFolder("tracks").write(Self.byteOrderMark + text, to: name)
    let track = try CameraTrack.read(path: path)
    #expect(track.format == .tum)
    #expect(track.poses[0].timeSeconds == 1305031098.6659)
    // TUM is OpenCV camera, Z-up world: position (1, 2, 3) becomes ARKit (x, z, −y).
    #expect(
      track.poses[0].worldFromCamera.translation.isApproximatelyEqual(
        to: Vector3(1, 3, -2), absoluteTolerance: 1e-12))
  }

  @Test("a byte-order mark with an explicit --format is skipped too")
  func byteOrderMarkWithFormat() throws {
    let path = TemporaryFolder("tracks").write(
      Self.byteOrderMark + "1 0 0 0 0 0 0 1\n", to: "bom-format.txt")
    var options = TrackReadOptions()
    options.format = .tum
    let track = try CameraTrack.read(path: path, options: options)
    #expect(track.poses.count == 1)
    #expect(track.poses[0].timeSeconds == 1)
  }

  @Test("only a leading mark is skipped: one inside a later line is still not a number")
  func byteOrderMarkLater() throws {
    let (error, message) = try TrackReadErrorTests.errorText(
      "1 0 0 0 0 0 0 1\n" + Self.byteOrderMark + "2 0 0 0 0 0 0 1\n")
    #expect(error.kind == .badData)
    // The mark is quoted escaped, so the message shows it (issue 22: control characters).
    #expect(message.hasPrefix(":2: field 'timestamp': '\\u{FEFF}2' is not a number"), "\(message)")
  }

  @Test("an undetectable column count names the line, each format's columns and --format")
  func undetectableFormat() throws {
    let (error, message) = try TrackReadErrorTests.errorText("# t x y z\n1 2 3 4\n")
    #expect(error.kind == .badData)
    #expect(
      message
        == ":2: cannot tell the track format from 4 columns: expected TUM (8 columns), KITTI"
        + " (12) or the ARKit data logger (13); EuRoC (.csv), ARKitScenes (.traj) and JSON"
        + " (.json) are told by extension; name it with --format"
        + " tum|arkit|kitti|euroc|arkitscenes|json|arcore")
  }
}
