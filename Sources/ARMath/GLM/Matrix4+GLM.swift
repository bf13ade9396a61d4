import CGLM

extension Matrix4 {
  /// The matrix product `a · b` (apply `b` first), computed by GLM.
  public static func * (a: Matrix4, b: Matrix4) -> Matrix4 {
    Matrix4(glm: arsim_glm.multiply(a.glm, b.glm))
  }

  /// The inverse, computed by GLM (`glm::inverse`), or `nil` when the matrix is singular
  /// (|determinant| < 1e-300) or not finite.
  public var inverse: Matrix4? {
    let d = arsim_glm.determinant(glm)
    guard d.isFinite, abs(d) > 1e-300 else { return nil }
    return Matrix4(glm: arsim_glm.inverse(glm))
  }

  /// The determinant, computed by GLM.
  public var determinant: Double { arsim_glm.determinant(glm) }

  /// A view matrix (`cameraFromWorld`) for an eye at `eye` looking at `center` with `up`,
  /// right-handed, camera looking down −Z (GLM's `lookAtRH`).
  public static func lookAtRH(eye: Vector3, center: Vector3, up: Vector3) -> Matrix4 {
    Matrix4(
      glm: arsim_glm.lookAtRH(eye.x, eye.y, eye.z, center.x, center.y, center.z, up.x, up.y, up.z))
  }

  /// An OpenGL projection (`clipFromCamera`), right-handed, NDC depth −1…1
  /// (GLM's `perspectiveRH_NO`).
  ///
  /// - Parameters:
  ///   - fovYRadians: full vertical field of view in radians.
  ///   - aspect: width / height.
  ///   - near: near clip distance in metres (> 0).
  ///   - far: far clip distance in metres (> near).
  public static func perspectiveRH_NO(
    fovYRadians: Double, aspect: Double, near: Double, far: Double
  ) -> Matrix4 {
    Matrix4(glm: arsim_glm.perspectiveRH_NO(fovYRadians, aspect, near, far))
  }
}
