import ARMath
import ARRemoteAssist
import Testing

@Suite struct RemoteAssistMessageTests {
  @Test("dispatch order: contains(\"color:\") first, then exact control words, else points")
  func dispatch() {
    #expect(RemoteAssistMessage.classify("undo", mode: .faithful) == .undo)
    #expect(RemoteAssistMessage.classify("touch-start", mode: .faithful) == .touchStart)
    #expect(RemoteAssistMessage.classify("touch-end", mode: .faithful) == .touchEnd)
    #expect(
      RemoteAssistMessage.classify("undo color: [0.0, 0.0, 0.0, 1.0]", mode: .faithful)
        == .color(components: [0, 0, 0, 1], reason: nil))
    if case .points = RemoteAssistMessage.classify("undo ", mode: .faithful) {
    } else {
      Issue.record("'undo ' with a space is not the exact control word: it is points")
    }
  }

  @Test("the faithful parser drops exactly the first and last point")
  func faithfulDrop() {
    let text = "[(1.0, 2.0), (3.5, -4.25), (5.0, 6.0), (7.0, 8.0)]"
    #expect(
      RemoteAssistMessage.classify(text, mode: .faithful)
        == .points([Vector2(3.5, -4.25), Vector2(5.0, 6.0)], dropped: 2, indices: [1, 2]))
    #expect(
      RemoteAssistMessage.classify(text, mode: .corrected)
        == .points(
          [Vector2(1, 2), Vector2(3.5, -4.25), Vector2(5, 6), Vector2(7, 8)], dropped: 0,
          indices: [0, 1, 2, 3]))
    // A malformed piece keeps its place in the count: the next point is index 2.
    #expect(
      RemoteAssistMessage.classify("[(1.0, 2.0), (x, 1.0), (5.0, 6.0)]", mode: .surface)
        == .points([Vector2(1, 2), Vector2(5, 6)], dropped: 1, indices: [0, 2]))
  }

  @Test("Darwin [CGPoint] text uses Swift's shortest round-trip doubles")
  func pointsText() {
    #expect(
      HelperSimulation.pointsText([Vector2(-12.5, 40), Vector2(0.1, 3)])
        == "[(-12.5, 40.0), (0.1, 3.0)]")
    #expect(
      HelperSimulation.colorText([0, 122.0 / 255, 1, 1])
        == "color: [0.0, 0.47843137254901963, 1.0, 1.0]")
  }
}
