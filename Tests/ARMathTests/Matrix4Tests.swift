import ARMath
import Testing

@Suite struct Matrix4Tests {
  @Test("row-major text order maps to column-major storage")
  func rowMajor() {
    let m = Matrix4(rowMajor: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 0, 0, 1])
    #expect(m.translation == Vector3(4, 8, 12))
    #expect(m[0, 1] == 2 && m[1, 0] == 5)
    #expect(m.columnMajorElements.prefix(4) == [1, 5, 9, 0])
  }

  @Test("GLM inverse of a rigid transform times the transform is the identity")
  func inverse() throws {
    let t = RigidTransform(
      rotation: Quaternion(axis: Vector3(0.2, 1, -0.3), angleRadians: 2.0),
      translation: Vector3(1, -2, 3))
    let m = t.matrix
    let inv = try #require(m.inverse)
    #expect((m * inv).isApproximatelyEqual(to: .identity, absoluteTolerance: 1e-12))
    #expect(inv.isApproximatelyEqual(to: t.inverse.matrix, absoluteTolerance: 1e-12))
  }

  @Test("a singular matrix has no inverse")
  func singular() {
    #expect(Matrix4(scale: Vector3(1, 0, 1)).inverse == nil)
  }

  @Test("the product composes right to left")
  func composition() {
    let translate = Matrix4(translation: Vector3(1, 0, 0))
    let scale = Matrix4(scale: Vector3(2, 2, 2))
    #expect((translate * scale).transformPoint(Vector3(1, 1, 1)) == Vector3(3, 2, 2))
    #expect((scale * translate).transformPoint(Vector3(1, 1, 1)) == Vector3(4, 2, 2))
  }

  @Test("GLM lookAtRH gives the inverse of the camera pose looking down −Z")
  func lookAt() throws {
    let view = Matrix4.lookAtRH(eye: Vector3(0, 0, 5), center: .zero, up: .unitY)
    #expect(
      view.transformPoint(.zero).isApproximatelyEqual(
        to: Vector3(0, 0, -5), absoluteTolerance: 1e-12))
  }

  @Test("GLM perspectiveRH_NO maps the near plane to NDC z = −1 and far to +1")
  func perspective() {
    let p = Matrix4.perspectiveRH_NO(fovYRadians: .pi / 2, aspect: 1, near: 1, far: 10)
    let nearPoint = p.multiply(Vector4(0, 0, -1, 1))
    let farPoint = p.multiply(Vector4(0, 0, -10, 1))
    #expect((nearPoint.z / nearPoint.w).isApproximatelyEqual(to: -1, absoluteTolerance: 1e-12))
    #expect((farPoint.z / farPoint.w).isApproximatelyEqual(to: 1, absoluteTolerance: 1e-12))
  }

  @Test("re-orthonormalising removes small errors and keeps the first axis")
  func orthonormalize() throws {
    let m = Matrix3(Vector3(1, 0.001, 0), Vector3(0, 1, 0.002), Vector3(0.001, 0, 1))
    #expect(m.orthonormalityError > 1e-4)
    let r = try #require(m.orthonormalized)
    #expect(r.orthonormalityError < 1e-12)
    #expect(r.determinant.isApproximatelyEqual(to: 1, absoluteTolerance: 1e-12))
  }
}
