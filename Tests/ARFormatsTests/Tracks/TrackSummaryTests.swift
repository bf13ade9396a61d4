import ARFormats
import ARMath
import Testing

@Suite struct TrackSummaryTests {
  @Test("count, span, rate, largest gap, path length and bounds of three poses")
  func threePoses() {
    let track = CameraTrack(
      poses: [
        TimedPose(timeSeconds: 10, worldFromCamera: .identity),
        TimedPose(
          timeSeconds: 10.5,
          worldFromCamera: RigidTransform(rotation: .identity, translation: Vector3(3, 4, 0))),
        TimedPose(
          timeSeconds: 12,
          worldFromCamera: RigidTransform(rotation: .identity, translation: Vector3(3, 4, -2))),
      ], format: .tum)
    let summary = TrackSummary(track)
    #expect(summary.count == 3)
    #expect(summary.durationSeconds == 2)
    #expect(summary.meanRateHertz == 1)
    #expect(summary.largestGapSeconds == 1.5)
    #expect(summary.pathLengthMetres == 7)
    #expect(summary.boundingBoxMinimum == Vector3(0, 0, -2))
    #expect(summary.boundingBoxMaximum == Vector3(3, 4, 0))
    #expect(summary.textLines[0] == "format:      tum")
    #expect(summary.textLines[4] == "duration:    2.00 s")
  }
}
