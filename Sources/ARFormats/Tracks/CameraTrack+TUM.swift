import ARMath
import ARSupport

extension CameraTrack {
  /// The track as TUM text in ARKit frames: a header, then `t tx ty tz qx qy qz qw` per pose
  /// (seconds, metres, unit quaternion x y z w, camera-to-world).
  ///
  /// Numbers are Swift's shortest round-trip `Double` text, so reading the file back gives the
  /// same values exactly (up to the quaternion's renormalisation, ~1e-16). The header line
  /// `# arsim: cameraAxes=arkit worldUp=y` tells `CameraTrack.read` that the file is in ARKit
  /// frames rather than TUM's usual OpenCV camera and z-up world.
  /// - Complexity: O(n).
  public var tumText: String {
    var out = "# ARSim camera track in ARKit frames (camera-to-world; camera +X right, +Y up,"
    out += " looks down -Z; world +Y up; metres)\n"
    out += TextTrackReader.arkitFramesDeclaration + "\n"
    out += "# timestamp tx ty tz qx qy qz qw\n"
    for pose in poses {
      let t = pose.worldFromCamera.translation
      let q = pose.worldFromCamera.rotation
      let numbers = [pose.timeSeconds, t.x, t.y, t.z, q.x, q.y, q.z, q.w]
      out += numbers.map { $0 == 0 ? "0" : "\($0)" }.joined(separator: " ") + "\n"
    }
    return out
  }
}
