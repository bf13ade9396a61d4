import ARMath
import ARScene
import ARSupport

/// Whether a tick's camera frame reached the app.
public enum FrameDelivery: String, Hashable, Sendable {
  /// A new camera frame (`session(_:didUpdate:)`).
  case delivered
  /// The frame was dropped: the app and the view keep the last delivered one.
  case dropped
  /// The session is interrupted: no frames until `sessionInterruptionEnded`.
  case interrupted
}

/// An event of the tracking simulation (`tracking-state`, `camera-frame-dropped`,
/// `session-interrupted`, `session-interruption-ended`, `relocalized`) with its fields.
public struct TrackingEvent: Hashable, Sendable {
  /// The event name.
  public var name: String
  /// Its fields, in order.
  public var fields: [(String, JSONValue)]

  /// Creates an event.
  public init(_ name: String, _ fields: [(String, JSONValue)] = []) {
    self.name = name
    self.fields = fields
  }

  /// Equal names and fields (in order).
  public static func == (a: TrackingEvent, b: TrackingEvent) -> Bool {
    a.name == b.name && JSONValue.object(a.fields) == JSONValue.object(b.fields)
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(JSONValue.object(fields))
  }
}

/// What one AR tick's tracking gives the frame loop.
public struct TrackedFrame: Sendable {
  /// The true camera of the frame shown (the world is rendered from it).
  public var trueCamera: Camera
  /// The tracker's estimate of that camera: what the apps see and their content is rendered
  /// from (`ARFrame.camera`).
  public var camera: Camera
  /// The tracking state; nil when nothing has reported one yet (the measure app's keyframes
  /// starting after τ = 0).
  public var state: TrackingState?
  /// Whether the tick delivered a new frame.
  public var delivery: FrameDelivery
  /// τ at which the shown frame was captured (its tick's time plus jitter), seconds.
  public var captureTime: Double
  /// The tick index of the shown frame.
  public var deliveredTick: Int
  /// Events of this tick, in order.
  public var events: [TrackingEvent]
}

/// The tracking of one run, advanced once per AR tick in order by the frame loop (its only
/// interface to it: `advance`, `estimatedCamera(at:trueCamera:)`, `traceFields`).
///
/// Each tick: interruptions begin or end; the frame is dropped or delivered; the pose error
/// steps (drift every tick, noise fresh each tick, relocalisations reset the drift); the
/// estimate of a delivered frame is the true camera, scaled about the τ = 0 position and
/// offset by the error; the state comes from the rules, then recorded states, then keyframes
/// (a later source overrides an earlier one). Tick 0 always delivers.
public final class TrackingSimulation {
  /// The configuration.
  public let configuration: TrackingConfiguration
  private let tickSeconds: Double
  private let lastTime: Double
  private var error: PoseErrorProcess
  private var timing: Xoshiro256StarStar
  private var jitterStream: GaussianStream
  private var origin: Vector3?
  private var last: TrackedFrame?
  private var lastTrueForSpeed: (time: Double, pose: RigidTransform)?
  private var errors: [PoseError] = []
  private var nextDrop = 0
  private var nextRelocalization = 0
  private var nextKeyframe = 0
  private var nextRecorded = 0
  private var keyframeState: TrackingState??
  private var recordedState: TrackingState?
  private var interruption: Int?
  private var nextInterruption = 0
  private var relocalizingUntil: Int64?
  private var motionUntil: Int64?
  private var featuresUntil: Int64?
  private var ruleState: TrackingState = .normal
  private var reported: TrackingState?

  /// A simulation for ticks of `1 / arFrameRate` seconds; `lastTime` is the last τ the camera
  /// track may be asked for (jittered capture times are clamped to 0…lastTime).
  public init(configuration: TrackingConfiguration, arFrameRate: Double, lastTime: Double) {
    self.configuration = configuration
    tickSeconds = 1 / arFrameRate
    self.lastTime = lastTime
    error = PoseErrorProcess(model: configuration.error, seed: configuration.seed)
    timing = Xoshiro256StarStar(seed: configuration.seed ^ 0x6672_616D_6500_0003)  // "frame"
    jitterStream = GaussianStream(seed: configuration.seed ^ 0x6A69_7474_6500_0004)  // "jitte"
  }

  /// Advances one tick at τ `t` (tick `tick`, called for 0, 1, 2, … in order).
  /// - Parameters:
  ///   - trueCamera: the true viewport camera at a τ (the camera track).
  ///   - featurePointsInView: feature points a camera sees (only asked when a rule needs it).
  /// - Throws: what `trueCamera` throws.
  public func advance(
    tick: Int, t: Double, trueCamera: (Double) throws -> Camera,
    featurePointsInView: (Camera) -> Int
  ) throws -> TrackedFrame {
    let c = configuration
    let now = Self.microseconds(t)
    var events: [TrackingEvent] = []
    guard c.isActive else {
      let camera = try trueCamera(t)
      let frame = TrackedFrame(
        trueCamera: camera, camera: camera, state: keyframesOnlyState(now), delivery: .delivered,
        captureTime: t, deliveredTick: tick, events: [])
      last = frame
      return frame
    }

    // Interruptions.
    if let index = interruption, now >= Self.microseconds(c.interruptions[index].end) {
      interruption = nil
      let end = c.interruptions[index]
      relocalizingUntil = Self.microseconds(end.end + end.relocalizingSeconds)
      events.append(TrackingEvent("session-interruption-ended"))
    }
    if interruption == nil, tick > 0, nextInterruption < c.interruptions.count,
      now >= Self.microseconds(c.interruptions[nextInterruption].start)
    {
      interruption = nextInterruption
      nextInterruption += 1
      events.append(TrackingEvent("session-interrupted", Self.keptFields(last)))
    }

    // Dropped frames: the draws happen every tick so that one setting never shifts another's.
    let draw = c.frames.dropRate > 0 ? timing.nextUnit() : 1
    let jitter =
      c.frames.jitterSeconds > 0
      ? min(max(jitterStream.next() * c.frames.jitterSeconds, -tickSeconds / 2), tickSeconds / 2)
      : 0
    var forcedDrop = false
    while nextDrop < c.frames.drops.count, Self.microseconds(c.frames.drops[nextDrop]) <= now {
      forcedDrop = true
      nextDrop += 1
    }
    let delivery: FrameDelivery =
      tick == 0 || last == nil
      ? .delivered
      : interruption != nil
        ? .interrupted : (forcedDrop || draw < c.frames.dropRate) ? .dropped : .delivered

    // Relocalisations (scene-given, and the one ending each relocalizing interval).
    while nextRelocalization < c.relocalizations.count,
      Self.microseconds(c.relocalizations[nextRelocalization].t) <= now
    {
      relocalize(to: c.relocalizations[nextRelocalization].residual, events: &events)
      nextRelocalization += 1
    }
    if let until = relocalizingUntil, now >= until, interruption == nil {
      relocalizingUntil = nil
      relocalize(to: .zero, events: &events)
    }
    let stepError = error.step(seconds: tick == 0 ? 0 : tickSeconds)
    errors.append(stepError)

    var frame: TrackedFrame
    // Tick 0 always delivers, so every later tick has a last frame to keep.
    if let last, delivery != .delivered {
      frame = last
      frame.delivery = delivery
      if delivery == .dropped {
        events.append(TrackingEvent("camera-frame-dropped", Self.keptFields(last)))
      }
      if interruption == nil { updateRulesWithoutFrame(now: now) }
    } else {
      // Clamped again: one microsecond before a start at 1 µs, or an end a hair past the
      // replay, would leave the track.
      let captureTime = min(
        max(
          Self.outsideInterruptions(min(max(t + jitter, 0), lastTime), tick: t, c.interruptions),
          0), lastTime)
      let truth = try trueCamera(captureTime)
      var estimate = truth
      estimate.worldFromCamera = estimated(truth.worldFromCamera, error: stepError)
      frame = TrackedFrame(
        trueCamera: truth, camera: estimate, state: nil, delivery: .delivered,
        captureTime: captureTime, deliveredTick: tick, events: [])
      updateRules(now: now, truth: truth, captureTime: captureTime, featurePointsInView)
    }

    // State: rules, then recorded, then keyframes.
    while nextRecorded < c.recordedStates.count,
      Self.microseconds(c.recordedStates[nextRecorded].t) <= now
    {
      recordedState = c.recordedStates[nextRecorded].state
      nextRecorded += 1
    }
    while nextKeyframe < c.keyframes.count, Self.microseconds(c.keyframes[nextKeyframe].t) <= now {
      keyframeState = .some(c.keyframes[nextKeyframe].state)
      nextKeyframe += 1
    }
    let state = (keyframeState ?? nil) ?? recordedState ?? ruleState
    if state != reported {
      reported = state
      events.insert(TrackingEvent("tracking-state", Self.stateFields(state)), at: 0)
    }
    frame.state = state
    frame.events = events
    last = frame
    return frame
  }

  /// The estimate the apps had at τ `t` for the true camera `trueCamera` then (the helper's
  /// delayed video): the error of the last tick at or before `t` applied to it. Before any
  /// tick, or inactive: `trueCamera`.
  public func estimatedCamera(at t: Double, trueCamera: Camera) -> Camera {
    guard configuration.isActive, !errors.isEmpty else { return trueCamera }
    let tick = min(max(Int((t / tickSeconds + 1e-9).rounded(.down)), 0), errors.count - 1)
    var camera = trueCamera
    camera.worldFromCamera = estimated(trueCamera.worldFromCamera, error: errors[tick])
    return camera
  }

  /// The trace line's `tracking` field of the latest tick (only with a `tracking` section):
  /// `{"state", "reason" (null unless limited), "frame": delivered|dropped|interrupted,
  /// "captureTime": τ of the shown frame, "shownTick": its AR tick}`.
  public var traceFields: [(String, JSONValue)] {
    guard configuration.isActive, let last else { return [] }
    let state = last.state ?? .normal
    return [
      (
        "tracking",
        .object(
          Self.stateFields(state) + [
            ("frame", .string(last.delivery.rawValue)), ("captureTime", .number(last.captureTime)),
            ("shownTick", .integer(last.deliveredTick)),
          ])
      )
    ]
  }

  /// `captureTime` moved out of any interruption it falls in (`start ≤ τ < end`, on the
  /// microsecond clock of the ticks), to the side of the window its tick `t` is on: `end`, or
  /// one microsecond before `start`. No frame is captured while the session is interrupted,
  /// jitter or not.
  static func outsideInterruptions(
    _ captureTime: Double, tick t: Double, _ interruptions: [Interruption]
  ) -> Double {
    let capture = microseconds(captureTime)
    for window in interruptions
    where capture >= microseconds(window.start) && capture < microseconds(window.end) {
      return microseconds(t) >= microseconds(window.end) ? window.end : window.start - 1e-6
    }
    return captureTime
  }

  /// τ in integer microseconds, rounded; values beyond ±9e12 s saturate (never a trap).
  static func microseconds(_ t: Double) -> Int64 {
    guard t.isFinite else { return t > 0 ? .max : .min }
    return Int64(max(min(t * 1e6, 9e18), -9e18).rounded())
  }

  /// What a dropped or interrupted tick shows: the last delivered frame's tick and capture τ
  /// (its camera pose and, with `background.recording`, its camera image).
  static func keptFields(_ last: TrackedFrame?) -> [(String, JSONValue)] {
    guard let last else { return [] }
    return [
      ("shownTick", .integer(last.deliveredTick)), ("captureTime", .number(last.captureTime)),
    ]
  }

  static func stateFields(_ state: TrackingState) -> [(String, JSONValue)] {
    [
      ("state", .string(state.caseName)),
      ("reason", state.reason.map { .string($0.rawValue) } ?? .null),
    ]
  }

  private func keyframesOnlyState(_ now: Int64) -> TrackingState? {
    let keyframes = configuration.keyframes
    guard !keyframes.isEmpty else { return .normal }
    while nextKeyframe < keyframes.count, Self.microseconds(keyframes[nextKeyframe].t) <= now {
      keyframeState = .some(keyframes[nextKeyframe].state ?? .normal)
      nextKeyframe += 1
    }
    return keyframeState ?? nil
  }

  private func estimated(_ truth: RigidTransform, error: PoseError) -> RigidTransform {
    let scale = configuration.error.scale
    var pose = truth
    if scale != 0 {
      let origin = self.origin ?? truth.translation
      pose.translation = origin + (truth.translation - origin) * (1 + scale)
    }
    if self.origin == nil { self.origin = truth.translation }
    return error.applied(to: pose)
  }

  private func relocalize(to residual: PoseError, events: inout [TrackingEvent]) {
    let jump = residual.position - error.drift.position
    error.resetDrift(to: residual)
    events.append(TrackingEvent("relocalized", [("jump", .numbers(jump.array))]))
  }

  private func updateRules(
    now: Int64, truth: Camera, captureTime: Double, _ featurePointsInView: (Camera) -> Int
  ) {
    let c = configuration
    let hold = Self.microseconds(c.recoverySeconds)
    if let previous = lastTrueForSpeed, captureTime > previous.time {
      let dt = captureTime - previous.time
      let linear = truth.worldFromCamera.translation.distance(to: previous.pose.translation) / dt
      let angular =
        truth.worldFromCamera.rotation.angularDistance(to: previous.pose.rotation) / dt
      if (c.maximumLinearSpeed.map { linear > $0 } ?? false)
        || (c.maximumAngularSpeed.map { angular > $0 } ?? false)
      {
        motionUntil = now + hold
      }
    }
    lastTrueForSpeed = (captureTime, truth.worldFromCamera)
    if let minimum = c.minimumFeaturePoints, featurePointsInView(truth) < minimum {
      featuresUntil = now + hold
    }
    updateRulesWithoutFrame(now: now)
  }

  private func updateRulesWithoutFrame(now: Int64) {
    let c = configuration
    if let until = relocalizingUntil, now < until {
      ruleState = .limited(.relocalizing)
    } else if now < Self.microseconds(c.initializingSeconds) {
      ruleState = .limited(.initializing)
    } else if let until = motionUntil, now <= until {
      ruleState = .limited(.excessiveMotion)
    } else if let until = featuresUntil, now <= until {
      ruleState = .limited(.insufficientFeatures)
    } else {
      ruleState = .normal
    }
  }
}
