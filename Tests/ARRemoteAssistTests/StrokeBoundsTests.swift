import ARFormats
import ARMath
import Testing

/// Corrected-mode points far outside anything a helper sends are dropped with a warning
/// (stroke-log times: ARFormatsTests' StrokeBoundsTests).
@Suite struct StrokeBoundsTests {
  @Test("corrected mode drops a point beyond ±10⁶ points with a warning naming the line")
  func farPointCorrected() {
    let messages = [
      StrokeMessage(t: 0, text: "touch-start", line: 1),
      StrokeMessage(t: 0, text: "[(1e308, -1e308), (5.0, -5.0), (1000000.0, -1000000.0)]", line: 2),
    ]
    var h = RemoteAssistHarness(messages, mode: .corrected, pointsPerFrame: 3)
    h.run(2)
    // The far point is dropped; the point at the limit and (5, −5) become spheres, at
    // (−x/1000, −y/1000, 0) in the root.
    #expect(h.spheres.map(\.position) == [Vector3(-0.005, 0.005, 0), Vector3(-1000, 1000, 0)])
    let warnings = h.events.filter { $0.name == "warning" }
    #expect(warnings.count == 1)
    let fields = warnings.first?.fields ?? []
    #expect(
      fields.first { $0.0 == "reason" }?.1
        == .string("point (1e+308, -1e+308) is beyond ±1000000.0 points from the view centre"))
    #expect(fields.first { $0.0 == "line" }?.1 == .integer(2))
    let dropped = h.events.filter { $0.name == "dropped-point" }
    #expect(dropped.first?.fields.first { $0.0 == "count" }?.1 == .integer(1))
  }
}
