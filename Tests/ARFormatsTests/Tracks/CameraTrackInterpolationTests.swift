import ARFormats
import ARMath
import ARTestSupport
import Foundation
import Testing

@Suite struct CameraTrackInterpolationTests {
  /// Two poses 2 s apart: (0, 0, 0) facing −Z and (2, 4, −6) turned 90° about +Y.
  let track = CameraTrack(
    poses: [
      TimedPose(timeSeconds: 1, worldFromCamera: .identity),
      TimedPose(
        timeSeconds: 3,
        worldFromCamera: RigidTransform(
          rotation: Quaternion(axis: .unitY, angleRadians: .pi / 2), translation: Vector3(2, 4, -6))
      ),
    ], format: .json)

  @Test("halfway between two poses: the mid position and half the rotation")
  func halfway() throws {
    let pose = try track.pose(at: 2)
    #expect(pose.translation.isApproximatelyEqual(to: Vector3(1, 2, -3)))
    let expected = Quaternion(x: 0, y: sin(Double.pi / 8), z: 0, w: cos(Double.pi / 8))
    #expect(pose.rotation.isApproximatelyEqual(to: expected, absoluteTolerance: 1e-12))
  }

  @Test("a sample time gives the sample exactly")
  func atSample() throws {
    #expect(try track.pose(at: 1) == .identity)
    #expect(try track.pose(at: 3) == track.poses[1].worldFromCamera)
  }

  @Test("shortest path: 170° and −170° about Y meet at 180°, not at 0°")
  func shortestPath() throws {
    let a = Quaternion(axis: .unitY, angleRadians: 170 * .pi / 180)
    let b = Quaternion(axis: .unitY, angleRadians: -170 * .pi / 180)
    let turning = CameraTrack(
      poses: [
        TimedPose(timeSeconds: 0, worldFromCamera: RigidTransform(rotation: a, translation: .zero)),
        TimedPose(timeSeconds: 1, worldFromCamera: RigidTransform(rotation: b, translation: .zero)),
      ], format: .json)
    let middle = try turning.pose(at: 0.5).rotation
    // Rotation by 180° about Y: (0, ±1, 0, 0); the long way would be the identity.
    #expect(
      middle.isApproximatelyEqual(to: Quaternion(x: 0, y: 1, z: 0, w: 0), absoluteTolerance: 1e-12))
    // Storing the second rotation as −q changes nothing.
    let negated = CameraTrack(
      poses: [
        TimedPose(timeSeconds: 0, worldFromCamera: .identity),
        TimedPose(
          timeSeconds: 1,
          worldFromCamera: RigidTransform(
            rotation: Quaternion(x: 0, y: -sin(0.25), z: 0, w: -cos(0.25)), translation: .zero)),
      ], format: .json)
    let quarter = try negated.pose(at: 0.5).rotation
    #expect(quarter.angleRadians.isApproximatelyEqual(to: 0.25, absoluteTolerance: 1e-12))
  }

  @Test("outside the track: an error naming the span, or the end pose when clamping")
  func outside() throws {
    #expect(
      throws: TrackQueryError.timeOutOfRange(requestedSeconds: 0.5, firstSeconds: 1, lastSeconds: 3)
    ) {
      try track.pose(at: 0.5)
    }
    #expect(throws: TrackQueryError.self) { try track.pose(at: 3.000001) }
    #expect(throws: TrackQueryError.self) { try track.pose(at: .nan, clamp: true) }
    #expect(try track.pose(at: -10, clamp: true) == .identity)
    #expect(try track.pose(at: 10, clamp: true) == track.poses[1].worldFromCamera)
  }

  @Test("resampling at 4 Hz over the whole track gives 9 samples at k / 4 s")
  func resampleCount() throws {
    let samples = try track.resampled(rate: 4, start: 1, duration: nil)
    #expect(samples.map(\.timeSeconds) == [1, 1.25, 1.5, 1.75, 2, 2.25, 2.5, 2.75, 3])
    #expect(samples[4].worldFromCamera.translation.isApproximatelyEqual(to: Vector3(1, 2, -3)))
    #expect(throws: TrackQueryError.self) { try track.resampled(rate: 0, start: 1, duration: 1) }
    #expect(throws: TrackQueryError.self) { try track.resampled(rate: 4, start: 1, duration: 3) }
  }

  @Test("ORB-SLAM keyframes at 60 Hz match an independent lerp/slerp at 10 times to 1e-9")
  func orbSlamResampled() throws {
    let path = Fixtures.path("tracks/tum_fr1_xyz_orbslam_kf_mono.txt")
    // Identity conventions, so the file's numbers are compared directly.
    let track = try CameraTrack.read(
      path: path, options: TrackReadOptions(cameraAxes: .arkit, worldUp: .y))
    let samples = try track.resampled(rate: 60, start: track.poses[0].timeSeconds, duration: nil)
    #expect(samples.count == Int((track.endSeconds - track.startSeconds) * 60) + 1)

    let rows = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
      $0.split(separator: " ").compactMap { Double($0) }
    }
    for index in [0, 1, 7, 100, 333, 500, 640, 777, 1000, samples.count - 1] {
      let t = samples[index].timeSeconds
      #expect(
        t.isApproximatelyEqual(to: track.startSeconds + Double(index) / 60, absoluteTolerance: 1e-6)
      )
      let after = try #require(rows.firstIndex { $0[0] >= t })
      let (a, b) = after == 0 ? (rows[0], rows[0]) : (rows[after - 1], rows[after])
      let f = b[0] == a[0] ? 0 : (t - a[0]) / (b[0] - a[0])
      let position = (1...3).map { a[$0] + f * (b[$0] - a[$0]) }
      let q = Self.slerp(Array(a[4...7]), Array(b[4...7]), f)
      let pose = samples[index].worldFromCamera
      #expect(
        pose.translation.isApproximatelyEqual(to: Vector3(position[0], position[1], position[2])))
      #expect(
        pose.rotation.isApproximatelyEqual(to: Quaternion(x: q[0], y: q[1], z: q[2], w: q[3])))
    }
  }

  /// Shortest-path slerp of unit-normalised (x, y, z, w) quaternions, from the textbook formula
  /// q(t) = [sin((1 − t)θ) q₁ + sin(tθ) q₂] / sin θ with cos θ = |q₁·q₂|.
  static func slerp(_ p: [Double], _ r: [Double], _ t: Double) -> [Double] {
    let q1 = p.map { $0 / sqrt(p.reduce(0) { $0 + $1 * $1 }) }
    var q2 = r.map { $0 / sqrt(r.reduce(0) { $0 + $1 * $1 }) }
    var d = zip(q1, q2).reduce(0) { $0 + $1.0 * $1.1 }
    if d < 0 {
      q2 = q2.map { -$0 }
      d = -d
    }
    let result: [Double]
    if d > 1 - 1e-12 {
      result = zip(q1, q2).map { $0 + t * ($1 - $0) }
    } else {
      let theta = acos(d)
      result = zip(q1, q2).map {
        (sin((1 - t) * theta) * $0 + sin(t * theta) * $1) / sin(theta)
      }
    }
    let n = sqrt(result.reduce(0) { $0 + $1 * $1 })
    return result.map { $0 / n }
  }
}
