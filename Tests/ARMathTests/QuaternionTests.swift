import ARMath
import Testing

@Suite struct QuaternionTests {
  @Test("a quarter turn about +Y maps +X to −Z")
  func quarterTurn() {
    let q = Quaternion(axis: .unitY, angleRadians: .pi / 2)
    #expect(q.act(.unitX).isApproximatelyEqual(to: Vector3(0, 0, -1), absoluteTolerance: 1e-12))
  }
}
