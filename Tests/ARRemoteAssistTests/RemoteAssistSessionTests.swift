import ARFormats
import ARMath
import ARRemoteAssist
import ARScene
import Testing

@Suite struct RemoteAssistSessionTests {
  @Test("a point (100, −50) in the middle of a batch lands at world (0.125, 0.0625, −1)")
  func handComputedPlacement() throws {
    let batch = "[(1.0, 1.0), (100.0, -50.0), (2.0, 2.0)]"
    var h = RemoteAssistHarness(
      [StrokeMessage(t: 0, text: "touch-start"), StrokeMessage(t: 0, text: batch)],
      mode: .faithful)
    h.run(3)
    let spheres = h.spheres
    try #require(spheres.count == 1)  // faithful: first and last points dropped
    let sphere = spheres[0]
    // Root at (0, 0, −1), scale 1.25, local +X → world −X: (−0.1, 0.05, 0)·1.25 mirrored.
    #expect(
      sphere.worldPosition.isApproximatelyEqual(
        to: Vector3(0.125, 0.0625, -1.0), absoluteTolerance: 1e-12))
    let worldRadius = 0.015 * sphere.worldTransform.upperLeft3x3.columns.0.length
    #expect(worldRadius.isApproximatelyEqual(to: 0.01875, absoluteTolerance: 1e-12))
    #expect(sphere.geometry?.material.diffuse == .systemBlue)
  }

  @Test("a 12-point stroke sent as 10 + 2 gives 8 spheres faithful and 12 corrected")
  func faithfulVersusCorrected() {
    let points = (1...12).map { Vector2(Double($0), Double(-$0)) }
    let messages =
      [StrokeMessage(t: 0, text: "touch-start")]
      + batches(points).map { StrokeMessage(t: 0.1, text: $0) }
      + [StrokeMessage(t: 0.1, text: "touch-end")]
    var faithful = RemoteAssistHarness(messages, mode: .faithful)
    faithful.run(40)
    #expect(faithful.spheres.count == 8)
    // Dropped: first and last of the 10-batch, and both of the 2-batch.
    let droppedCount = faithful.events.filter { $0.name == "dropped-point" }.reduce(0) {
      total, event in
      if case .integer(let n) = event.fields.first(where: { $0.0 == "count" })?.1 {
        return total + n
      }
      return total
    }
    #expect(droppedCount == 4)
    var corrected = RemoteAssistHarness(messages, mode: .corrected)
    corrected.run(40)
    #expect(corrected.spheres.count == 12)
    // Corrected keeps the order: the k-th sphere is point k.
    let xs = corrected.spheres.map { -$0.position.x * 1000 }
    #expect(xs.map { $0.rounded() } == (1...12).map(Double.init))
  }

  @Test("one point is popped per tick, in the tick its message arrives")
  func pacing() {
    let points = (1...10).map { Vector2(Double($0), 0) }
    var h = RemoteAssistHarness(
      [StrokeMessage(t: 0, text: "touch-start"), StrokeMessage(t: 0, text: batches(points)[0])],
      mode: .faithful)
    h.run(1)
    #expect(h.spheres.count == 1)
    h.run(4)
    #expect(h.spheres.count == 5)
    h.run(10)
    #expect(h.spheres.count == 8)
  }

  @Test("a colour between batches recolours still-queued points only in faithful mode")
  func lateColourBinding() {
    let red = "color: [1.0, 0.0, 0.0, 1.0]"
    let first = (1...10).map { Vector2(Double($0), 0) }
    let messages = [
      StrokeMessage(t: 0, text: "touch-start"),
      StrokeMessage(t: 0, text: batches(first)[0]),  // 8 (faithful) / 10 queued at tick 0
      StrokeMessage(t: 2.0 / 60, text: red),  // arrives at tick 2
    ]
    let redColor = Color(red: 1, green: 0, blue: 0, alpha: 1)
    var faithful = RemoteAssistHarness(messages, mode: .faithful)
    faithful.run(20)
    let faithfulColors = faithful.spheres.map { $0.geometry?.material.diffuse }
    // Ticks 0 and 1 pop blue; from tick 2 the colour is red.
    #expect(faithfulColors.prefix(2).allSatisfy { $0 == .systemBlue })
    #expect(faithfulColors.dropFirst(2).allSatisfy { $0 == redColor })
    #expect(faithfulColors.count == 8)
    var corrected = RemoteAssistHarness(messages, mode: .corrected)
    corrected.run(20)
    #expect(corrected.spheres.count == 10)
    #expect(corrected.spheres.allSatisfy { $0.geometry?.material.diffuse == .systemBlue })
  }

  @Test("undo with points queued: faithful moves them to the previous root, corrected drops them")
  func undoWithQueuedPoints() {
    let a = (1...10).map { Vector2(Double($0), 0) }
    let b = (1...10).map { Vector2(0, Double($0)) }
    let messages = [
      StrokeMessage(t: 0, text: "touch-start"),
      StrokeMessage(t: 0, text: batches(a)[0]),
      StrokeMessage(t: 1, text: "touch-start"),
      StrokeMessage(t: 1, text: batches(b)[0]),
      StrokeMessage(t: 1 + 3.0 / 60, text: "undo"),  // tick 63: delivered before that tick's pop
    ]
    var faithful = RemoteAssistHarness(messages, mode: .faithful)
    faithful.run(120)
    // Stroke 0: 8 points; stroke 1 (8 queued from tick 60) got ticks 60…62 before the undo at
    // tick 63; its other 5 points join stroke 0.
    #expect(faithful.session.roots.count == 1)
    #expect(faithful.spheres.count == 13)
    var corrected = RemoteAssistHarness(messages, mode: .corrected)
    corrected.run(120)
    #expect(corrected.session.roots.count == 1)
    #expect(corrected.spheres.count == 10)
    #expect(corrected.events.contains { $0.name == "undo" })
  }

  @Test("points with no root: faithful discards them when popped, corrected warns")
  func noRoot() {
    let messages = [StrokeMessage(t: 0, text: batches((1...5).map { Vector2(Double($0), 0) })[0])]
    var faithful = RemoteAssistHarness(messages, mode: .faithful)
    faithful.run(10)
    #expect(faithful.spheres.isEmpty)
    #expect(faithful.events.filter { $0.name == "dropped-point" }.count == 1 + 3)
    var corrected = RemoteAssistHarness(messages, mode: .corrected)
    corrected.run(10)
    #expect(corrected.spheres.isEmpty)
    #expect(corrected.events.contains { $0.name == "dropped-point" })
  }

  @Test("after touch-start the root keeps its world position while it turns to the camera")
  func rootStaysAnchored() throws {
    var h = RemoteAssistHarness(
      [StrokeMessage(t: 0, text: "touch-start")], mode: .faithful)
    h.run(1)
    let root = try #require(h.session.roots.first)
    let start = root.worldPosition
    let moved = RigidTransform(
      rotation: Quaternion(axis: .unitY, angleRadians: 0.4), translation: Vector3(0.5, 0.1, 0.2))
    h.run(1, pose: moved)
    #expect(root.worldPosition == start)
    let toCamera = try #require((moved.translation - start).normalized)
    // −Z faces the camera: +Z points from the camera to the root.
    #expect(
      root.worldTransform.upperLeft3x3.columns.2.normalized?.isApproximatelyEqual(
        to: -toCamera, absoluteTolerance: 1e-12) == true)
  }

  @Test("misbehaving sender: big, non-ASCII, short colour, undo without strokes → warnings")
  func misbehavingSender() {
    let huge = "[" + Array(repeating: "(1.0, 2.0)", count: 200).joined(separator: ", ") + "]"
    let messages = [
      StrokeMessage(t: 0, text: huge),
      StrokeMessage(t: 0, data: [0x74, 0xFF, 0x00]),
      StrokeMessage(t: 0, text: "color: [0.5, 1.0]"),
      StrokeMessage(t: 0, text: "undo"),
      StrokeMessage(t: 0, text: "color: [2.0, 0.0, 0.0, 1.0]"),
    ]
    for mode in RemoteAssistMode.allCases {
      var h = RemoteAssistHarness(messages, mode: mode)
      h.run(2)
      #expect(h.events.filter { $0.name == "warning" }.count == 5, "\(mode)")
      #expect(h.session.currentColor == Color(red: 1, green: 0, blue: 0, alpha: 1))
    }
  }

  @Test("more than 30 messages in a second raise one rate warning")
  func rateLimit() {
    let messages = (0..<40).map { StrokeMessage(t: Double($0) * 0.02, text: "touch-end") }
    var h = RemoteAssistHarness(messages, mode: .faithful)
    h.run(60)
    let rate = h.events.filter {
      $0.name == "warning"
        && $0.fields.contains { $0.0 == "reason" && $0.1.text.contains("rate limit") }
    }
    #expect(rate.count == 1)
  }

  @Test("text that is not a point batch: faithful mode says what it is and that the app ignores it")
  func notABatch() {
    let texts = [
      ("\"touch-start\"", "the command word touch-start inside quotes"),
      (
        "[Foundation.CGPoint(x: 1.0, y: 2.0), Foundation.CGPoint(x: 3.0, y: 4.0)]",
        "Linux Foundation format"
      ),
      ("[]", "an empty point array"),
      ("hello", "neither a command word nor a point array"),
    ]
    for mode in RemoteAssistMode.allCases {
      var h = RemoteAssistHarness(
        [StrokeMessage(t: 0, text: "touch-start")] + texts.map { StrokeMessage(t: 0, text: $0.0) },
        mode: mode)
      h.run(3)
      let name = mode.correctsApp ? "warning" : "ignored-message"
      let reported = h.events.filter { $0.name == name }.map { event in
        event.fields.first { $0.0 == "reason" }?.1.text ?? ""
      }
      #expect(reported.count == texts.count, "\(mode): \(reported)")
      for ((_, what), reason) in zip(texts, reported) {
        #expect(reason.contains(what), "\(mode): \(reason)")
        #expect(reason.contains("the app's parser finds no point in it and ignores the message"))
      }
      #expect(!h.events.contains { $0.name == "dropped-point" }, "\(mode)")
      #expect(h.spheres.isEmpty)
    }
  }

  @Test("a one-point batch is still a batch: faithful mode drops its only point as the app does")
  func onePointBatch() {
    var h = RemoteAssistHarness(
      [StrokeMessage(t: 0, text: "touch-start"), StrokeMessage(t: 0, text: "[(1.0, 2.0)]")],
      mode: .faithful)
    h.run(2)
    #expect(h.events.filter { $0.name == "dropped-point" }.count == 1)
    #expect(!h.events.contains { $0.name == "ignored-message" })
  }
}
