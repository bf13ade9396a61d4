import Testing

@testable import ARCollaboration

@Suite("ParticipantColor")
struct ParticipantColorTests {
  @Test("random colours: r, g, b in [0, 1), alpha 0.4, fixed by seed and id")
  func random() {
    let a = ParticipantColor.random(id: "A", seed: 1)
    #expect(a.count == 4 && a[3] == 0.4)
    #expect(a[0..<3].allSatisfy { $0 >= 0 && $0 < 1 })
    #expect(a == ParticipantColor.random(id: "A", seed: 1))
    #expect(a != ParticipantColor.random(id: "B", seed: 1))
    #expect(a != ParticipantColor.random(id: "A", seed: 2))
    // Over many ids the channels spread over the range (mean near 0.5).
    let reds = (0..<2_000).map { ParticipantColor.random(id: "user-\($0)", seed: 9)[0] }
    #expect(abs(reds.reduce(0, +) / 2_000 - 0.5) < 0.03)
  }
}
