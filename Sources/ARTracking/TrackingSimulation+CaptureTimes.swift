import ARMath
import ARScene

extension TrackingSimulation {
  /// τ (seconds) at which the camera frame shown at each of `ticks` was captured, as `advance`
  /// gives them (`TrackedFrame.captureTime`): the tick's own jittered capture time when its
  /// frame is delivered, the last delivered frame's on a dropped or interrupted tick (ARSCNView
  /// keeps drawing the last frame it got). Whether a frame arrives and when it was taken never
  /// depend on the camera, so this runs a simulation of its own without the track, for what
  /// needs the times ahead of the frame loop (the recorded camera images, decoded ahead).
  /// - Parameters:
  ///   - ticks: AR tick indices, ascending.
  ///   - time: τ of a tick (the scene's schedule).
  public static func shownCaptureTimes(
    configuration: TrackingConfiguration, arFrameRate: Double, lastTime: Double, ticks: [Int],
    time: (Int) -> Double
  ) -> [Double] {
    guard let last = ticks.last else { return [] }
    let simulation = TrackingSimulation(
      configuration: configuration, arFrameRate: arFrameRate, lastTime: lastTime)
    let still = Camera(intrinsics: .defaultCapture, worldFromCamera: .identity)
    var times: [Double] = []
    times.reserveCapacity(ticks.count)
    var next = ticks.startIndex
    for tick in 0...max(last, 0) {
      let t = time(tick)
      // The still camera never throws; a failure would keep τ itself.
      let frame = try? simulation.advance(
        tick: tick, t: t, trueCamera: { _ in still }, featurePointsInView: { _ in Int.max })
      while next < ticks.endIndex, ticks[next] == tick {
        times.append(frame?.captureTime ?? t)
        next += 1
      }
    }
    return times
  }
}
