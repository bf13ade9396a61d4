import ARMath
import Testing

@Suite struct QuaternionTests {
  @Test("a quarter turn about +Y maps +X to −Z")
  func quarterTurn() {
    let q = Quaternion(axis: .unitY, angleRadians: .pi / 2)
    #expect(q.act(.unitX).isApproximatelyEqual(to: Vector3(0, 0, -1), absoluteTolerance: 1e-12))
  }

  @Test("GLM's (w, x, y, z) constructor order is bridged: components stay x, y, z, w")
  func componentOrder() {
    let q = Quaternion(axis: .unitZ, angleRadians: .pi / 3)
    #expect(q.z.isApproximatelyEqual(to: 0.5, absoluteTolerance: 1e-12))
    #expect(q.w.isApproximatelyEqual(to: 0.75.squareRoot(), absoluteTolerance: 1e-12))
    #expect(q.x == 0 && q.y == 0)
  }

  @Test("the product applies the right factor first")
  func productOrder() {
    let a = Quaternion(axis: .unitX, angleRadians: .pi / 2)
    let b = Quaternion(axis: .unitY, angleRadians: .pi / 2)
    // b: +X → −Z; then a: −Z → +Y.
    #expect((a * b).act(.unitX).isApproximatelyEqual(to: .unitY, absoluteTolerance: 1e-12))
  }

  @Test("matrix and quaternion agree, and convert back")
  func matrixRoundTrip() {
    let q = Quaternion(axis: Vector3(1, 2, 3), angleRadians: 1.1)
    let m = q.rotationMatrix
    let v = Vector3(0.3, -0.7, 2)
    #expect(m.multiply(v).isApproximatelyEqual(to: q.act(v), absoluteTolerance: 1e-12))
    #expect(Quaternion(rotationMatrix: m).isApproximatelyEqual(to: q, absoluteTolerance: 1e-12))
  }

  @Test("slerp halfway between 0 and 90° about Z is 45°")
  func slerpHalfway() {
    let a = Quaternion.identity
    let b = Quaternion(axis: .unitZ, angleRadians: .pi / 2)
    let h = a.slerp(to: b, t: 0.5)
    #expect(
      h.isApproximatelyEqual(
        to: Quaternion(axis: .unitZ, angleRadians: .pi / 4), absoluteTolerance: 1e-12))
  }

  @Test("slerp takes the shortest path when the quaternions have a negative dot product")
  func slerpShortest() {
    let a = Quaternion(axis: .unitZ, angleRadians: 0.1)
    let b0 = Quaternion(axis: .unitZ, angleRadians: 0.3)
    let b = Quaternion(x: -b0.x, y: -b0.y, z: -b0.z, w: -b0.w)  // same rotation, other sign
    let h = a.slerp(to: b, t: 0.5)
    #expect(
      h.isApproximatelyEqual(
        to: Quaternion(axis: .unitZ, angleRadians: 0.2), absoluteTolerance: 1e-12))
  }

  @Test("shortest arc maps one direction onto another, including opposite ones")
  func shortestArc() {
    let q = Quaternion.shortestArc(from: Vector3(1, 0, 0), to: Vector3(0, 0, 2))
    #expect(q.act(.unitX).isApproximatelyEqual(to: .unitZ, absoluteTolerance: 1e-12))
    let flip = Quaternion.shortestArc(from: .unitY, to: -Vector3.unitY)
    #expect(flip.act(.unitY).isApproximatelyEqual(to: -Vector3.unitY, absoluteTolerance: 1e-12))
  }
}
