import ARTracking
import Foundation
import Testing

@Suite struct TrackingSpecTests {
  static func spec(_ json: String) throws -> TrackingSpec {
    try JSONDecoder().decode(TrackingSpec.self, from: Data(json.utf8))
  }

  static func failure(_ spec: TrackingSpec, duration: Double = 10) -> TrackingSpecError? {
    do {
      _ = try spec.configuration(duration: duration)
      return nil
    } catch {
      return error
    }
  }

  @Test(
    "a position σ or drift density above 100 is refused, naming the field; 100 is accepted",
    arguments: [
      (#"{"error": {"noise": {"position": 1e300}}}"#, "tracking.error.noise.position"),
      (#"{"error": {"drift": {"position": 100.5}}}"#, "tracking.error.drift.position"),
    ])
  func positionSigmaBound(json: String, field: String) throws {
    let error = Self.failure(try Self.spec(json))
    #expect(error?.field == field)
    #expect(error?.reason.contains("10^6 m") == true, "\(String(describing: error))")
    let largest = try Self.spec(
      #"{"error": {"noise": {"position": 100}, "drift": {"position": 100}}}"#)
    #expect(Self.failure(largest) == nil)
  }

  @Test(
    "a rotation σ, drift density or residual above its bound is refused, naming the field",
    arguments: [
      (#"{"error": {"noise": {"rotation": 1e12}}}"#, "tracking.error.noise.rotation"),
      (#"{"error": {"drift": {"rotation": 1e300}}}"#, "tracking.error.drift.rotation"),
      (
        #"{"relocalizations": [{"t": 1, "residual": {"rotation": [1e300, 0, 0]}}]}"#,
        "tracking.relocalizations[0].residual.rotation"
      ),
      (
        #"{"relocalizations": [{"t": 1, "residual": {"position": [1e300, 0, 0]}}]}"#,
        "tracking.relocalizations[0].residual.position"
      ),
    ])
  func rotationAndResidualBounds(json: String, field: String) throws {
    #expect(Self.failure(try Self.spec(json))?.field == field)
    let largest = try Self.spec(
      #"{"error": {"noise": {"rotation": 6.28}, "drift": {"rotation": 6.28}},"#
        + #" "relocalizations": [{"t": 1, "residual": {"position": [-100, 100, 0], "rotation": [6.28, 0, -6.28]}}]}"#
    )
    #expect(Self.failure(largest) == nil)
  }

  @Test("a full section gives its values")
  func values() throws {
    let c = try Self.spec(
      """
      {"seed": 7, "initializing": 0.5, "excessiveMotion": {"angularSpeed": 2, "linearSpeed": 1},
       "insufficientFeatures": {"minimumPoints": 12}, "recovery": 0.2,
       "states": [{"t": 1, "state": "limited(relocalizing)"}, {"t": 2, "state": "auto"},
                  {"t": 3, "state": "limitedExcessiveMotion"}],
       "error": {"noise": {"position": 0.001, "rotation": 0.002},
                 "drift": {"position": 0.01, "rotation": 0.003}, "scale": 0.02},
       "relocalizations": [{"t": 4, "residual": {"position": [0, 0.1, 0]}}],
       "frames": {"dropRate": 0.1, "drops": [1.5], "jitter": 0.001},
       "interruptions": [{"start": 5, "end": 6, "relocalizing": 0.5}]}
      """
    ).configuration(duration: 10)
    #expect(c.isActive && c.seed == 7 && c.initializingSeconds == 0.5)
    #expect(c.maximumAngularSpeed == 2 && c.maximumLinearSpeed == 1)
    #expect(c.minimumFeaturePoints == 12 && c.recoverySeconds == 0.2)
    #expect(
      c.keyframes == [
        TrackingKeyframe(t: 1, state: .limited(.relocalizing)), TrackingKeyframe(t: 2, state: nil),
        TrackingKeyframe(t: 3, state: .limited(.excessiveMotion)),
      ])
    #expect(c.error.positionNoise == 0.001 && c.error.rotationDrift == 0.003)
    #expect(c.error.scale == 0.02)
    #expect(c.relocalizations.first?.residual.position.y == 0.1)
    #expect(c.frames.dropRate == 0.1 && c.frames.drops == [1.5])
    #expect(c.interruptions == [Interruption(start: 5, end: 6, relocalizingSeconds: 0.5)])
  }

  @Test("bad values name their field")
  func errors() throws {
    var negative = try Self.spec(#"{"error": {"noise": {"position": -0.1}}}"#)
    #expect(Self.failure(negative)?.field == "tracking.error.noise.position")
    negative.error?.noise?.position = .nan
    #expect(Self.failure(negative)?.field == "tracking.error.noise.position")
    var drift = try Self.spec(#"{"error": {"drift": {"rotation": 1}}}"#)
    drift.error?.drift?.rotation = .infinity
    #expect(Self.failure(drift)?.field == "tracking.error.drift.rotation")
    let late = try Self.spec(#"{"relocalizations": [{"t": 1}, {"t": 12}]}"#)
    #expect(Self.failure(late)?.field == "tracking.relocalizations[1].t")
    #expect(Self.failure(late)?.reason.contains("outside the replay's time 0…10.0 s") == true)
    let reason = try Self.spec(#"{"states": [{"t": 0, "state": "limited(sleepy)"}]}"#)
    let error = try #require(Self.failure(reason))
    #expect(error.field == "tracking.states[0].state")
    #expect(error.description.contains("'limited(sleepy)' is not a tracking state"))
    let rate = try Self.spec(#"{"frames": {"dropRate": 1.5}}"#)
    #expect(Self.failure(rate)?.field == "tracking.frames.dropRate")
    let overlap = try Self.spec(
      #"{"interruptions": [{"start": 1, "end": 3}, {"start": 2, "end": 4}]}"#)
    #expect(Self.failure(overlap)?.field == "tracking.interruptions[1].start")
    let atStart = try Self.spec(#"{"interruptions": [{"start": 0, "end": 1}]}"#)
    #expect(Self.failure(atStart)?.field == "tracking.interruptions[0].start")
    // On the simulation's microsecond clock: 1e-7 s is τ = 0, 0.5000001 s is 0.5 s.
    let roundsToZero = try Self.spec(#"{"interruptions": [{"start": 1e-7, "end": 1}]}"#)
    #expect(Self.failure(roundsToZero)?.field == "tracking.interruptions[0].start")
    #expect(Self.failure(roundsToZero)?.reason.contains("after τ = 0") == true)
    let touching = try Self.spec(
      #"{"interruptions": [{"start": 1, "end": 2}, {"start": 2.0000001, "end": 3}]}"#)
    #expect(Self.failure(touching)?.field == "tracking.interruptions[1].start")
    let empty = try Self.spec(#"{"interruptions": [{"start": 1, "end": 1.0000001}]}"#)
    #expect(Self.failure(empty)?.field == "tracking.interruptions[0].end")
    let oneMicrosecond = try Self.spec(#"{"interruptions": [{"start": 6e-7, "end": 1}]}"#)
    #expect(Self.failure(oneMicrosecond) == nil)
    let jump = try Self.spec(#"{"relocalizations": [{"t": 1, "residual": {"rotation": [1, 2]}}]}"#)
    #expect(Self.failure(jump)?.field == "tracking.relocalizations[0].residual.rotation")
  }

  @Test("state names: ARKit's and the measure app's older ones; coaching text")
  func names() {
    for state in TrackingState.allStates { #expect(TrackingState(name: state.name) == state) }
    #expect(TrackingState(name: "initializing") == .limited(.initializing))
    #expect(TrackingState(name: "limitedInsufficientFeatures") == .limited(.insufficientFeatures))
    #expect(TrackingState(name: "limited()") == nil)
    #expect(TrackingState(name: "Normal") == nil)
    #expect(TrackingState.normal.coachingText == nil)
    #expect(TrackingState.limited(.excessiveMotion).coachingText == "Move iPhone more slowly")
  }
}
