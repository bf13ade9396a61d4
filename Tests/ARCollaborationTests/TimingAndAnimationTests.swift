import ARMath
import Testing

@testable import ARCollaboration

@Suite("Timing curve and RealityKit moves")
struct TimingAndAnimationTests {
  /// The curve inverted independently: sample the Bézier densely in s and interpolate x → y.
  func sampledProgress(_ x: Double, _ c: TimingCurve) -> Double {
    let n = 200_000
    var previous = (x: 0.0, y: 0.0)
    for i in 1...n {
      let s = Double(i) / Double(n)
      let r = 1 - s
      let px = 3 * r * r * s * c.controlPoint1.x + 3 * r * s * s * c.controlPoint2.x + s * s * s
      let py = 3 * r * r * s * c.controlPoint1.y + 3 * r * s * s * c.controlPoint2.y + s * s * s
      if px >= x {
        let f = (x - previous.x) / (px - previous.x)
        return previous.y + f * (py - previous.y)
      }
      previous = (px, py)
    }
    return 1
  }

  @Test("the default curve: ends fixed, eased, and equal to an independent inversion")
  func defaultCurve() {
    let curve = TimingCurve.realityKitDefault
    #expect(curve.progress(0) == 0 && curve.progress(1) == 1)
    #expect(curve.progress(-1) == 0 && curve.progress(2) == 1)
    for x in stride(from: 0.05, to: 1, by: 0.05) {
      #expect(abs(curve.progress(x) - sampledProgress(x, curve)) < 1e-6, "x = \(x)")
    }
    // CSS `ease` at the midpoint is about 0.8024; slow start: 10 % of the time gives < 10 %.
    #expect(abs(curve.progress(0.5) - 0.8024) < 1e-3)
    #expect(curve.progress(0.1) < 0.1)
    #expect(
      TimingCurve.linear.progress(0.3) == 0.3 || abs(TimingCurve.linear.progress(0.3) - 0.3) < 1e-12
    )
  }

  @Test("a 0.4 s move follows the curve and ends at the target")
  func move() {
    var entity = AnimatedTransform(.identity)
    let target = EntityTransform(translation: SIMD3(1, 0, 0))
    do {
      let value = entity.applyRemoteUpdate(target, at: 1_000_000)
      #expect(value)
    }
    let ease = TimingCurve.realityKitDefault
    #expect(entity.value(at: 1_000_000).translation.x == 0)
    let mid = Double(entity.value(at: 1_200_000).translation.x)
    #expect(abs(mid - ease.progress(0.5)) < 1e-6)
    #expect(entity.value(at: 1_400_000) == target)
    #expect(entity.value(at: 9_000_000) == target)
  }

  @Test("an update 0.3 s in cuts the move short and the next starts where the entity was")
  func interruptedMove() {
    var entity = AnimatedTransform(.identity)
    entity.applyRemoteUpdate(EntityTransform(translation: SIMD3(1, 0, 0)), at: 0)
    let ease = TimingCurve.realityKitDefault
    let at300 = ease.progress(0.75)  // 0.3 s of 0.4 s
    do {
      let value = entity.applyRemoteUpdate(
        EntityTransform(translation: SIMD3(2, 0, 0)), at: 300_000)
      #expect(value)
    }
    #expect(abs(Double(entity.value(at: 300_000).translation.x) - at300) < 1e-6)
    // 0.2 s into the second move: from at300 towards 2 by ease(0.5).
    let expected = at300 + (2 - at300) * ease.progress(0.5)
    #expect(abs(Double(entity.value(at: 500_000).translation.x) - expected) < 1e-6)
    #expect(entity.value(at: 700_000).translation.x == 2)
  }

  @Test("changes of at most 1e-5 do not move; the rotation vector's sign counts")
  func threshold() {
    let resting = EntityTransform(translation: SIMD3(0.5, 0, 0))
    var entity = AnimatedTransform(resting)
    do {
      let value = entity.applyRemoteUpdate(
        EntityTransform(translation: SIMD3(0.500005, 0, 0)), at: 0)
      #expect(!value)
    }
    #expect(entity.value(at: 1_000_000) == resting)
    do {
      let value = entity.applyRemoteUpdate(
        EntityTransform(translation: SIMD3(0.50002, 0, 0)), at: 0)
      #expect(value)
    }
    var turned = AnimatedTransform(.identity)
    // −q is the same rotation, but the app compares vectors: it moves (and slerps nowhere).
    do {
      let value = turned.applyRemoteUpdate(EntityTransform(rotation: SIMD4(0, 0, 0, -1)), at: 0)
      #expect(value)
    }
    let halfway = turned.value(at: 200_000).quaternion
    #expect(halfway.angularDistance(to: .identity) < 1e-6)
  }

  @Test("stopAllAnimations freezes the entity where it is shown")
  func stop() {
    var entity = AnimatedTransform(.identity)
    entity.move(to: EntityTransform(scale: SIMD3(3, 3, 3)), at: 0, durationSeconds: 0.4)
    let shown = entity.value(at: 100_000)
    entity.stopAllAnimations(at: 100_000)
    #expect(entity.move == nil)
    #expect(entity.value(at: 5_000_000) == shown)
    #expect(shown.scale.x > 1 && shown.scale.x < 3)
  }

  @Test("rotation slerps along the shortest path")
  func rotation() {
    var entity = AnimatedTransform(.identity)
    let quarter = Quaternion(axis: .unitY, angleRadians: .pi / 2)
    entity.move(
      to: EntityTransform(
        rotation: SIMD4(Float(quarter.x), Float(quarter.y), Float(quarter.z), Float(quarter.w))),
      at: 0, durationSeconds: 1, curve: .linear)
    let half = entity.value(at: 500_000).quaternion
    #expect(abs(half.angleRadians - .pi / 4) < 1e-6)
  }

  @Test("a rigid matrix converts to translation and quaternion, scale one")
  func rigidConversion() {
    let q = Quaternion(axis: Vector3(1, 2, 3).normalized!, angleRadians: 0.7)
    let m = Matrix4(rotation: q.rotationMatrix, translation: Vector3(0.5, -1, 2))
    let t = EntityTransform(rigid: m)
    #expect(t.scale == .one)
    #expect(t.translation == SIMD3(0.5, -1, 2))
    #expect(t.quaternion.angularDistance(to: q) < 1e-6)
    let back = t.matrix
    for (a, b) in zip(back.columnMajorElements, m.columnMajorElements) {
      #expect(abs(a - b) < 1e-6)
    }
  }
}
