import ARMath

/// A rendering camera: intrinsics of the output image and a `worldFromCamera` pose.
///
/// Camera frame as ARKit/OpenGL: +X right, +Y up, looking down −Z (DESIGN §3). Clip distances
/// in metres along −Z (ARKit's 0.001 m and 1000 m by default).
public struct Camera: Hashable, Sendable {
  /// Intrinsics in pixels of the output image.
  public var intrinsics: CameraIntrinsics
  /// Camera-to-world rigid pose (ARKit's `ARCamera.transform`).
  public var worldFromCamera: RigidTransform
  /// Near clip distance in metres (> 0).
  public var near: Double
  /// Far clip distance in metres (> near).
  public var far: Double

  /// Creates a camera.
  public init(
    intrinsics: CameraIntrinsics, worldFromCamera: RigidTransform, near: Double = 0.001,
    far: Double = 1000
  ) {
    self.intrinsics = intrinsics
    self.worldFromCamera = worldFromCamera
    self.near = near
    self.far = far
  }

  /// The world-to-camera transform.
  public var cameraFromWorld: RigidTransform { worldFromCamera.inverse }

  /// The world-space ray through output pixel (u, v), unit direction, from the camera centre.
  public func worldRay(u: Double, v: Double) -> Ray {
    let local = intrinsics.ray(u: u, v: v)
    let direction = worldFromCamera.transformDirection(local.direction)
    return Ray(
      origin: worldFromCamera.translation, direction: direction.normalized ?? Vector3(0, 0, -1))
  }

  /// The output pixel a world point projects to, with its depth (metres along −Z), or `nil`
  /// when the point is not in front of the camera.
  public func project(world p: Vector3) -> (u: Double, v: Double, depth: Double)? {
    let c = cameraFromWorld.transformPoint(p)
    guard let (u, v) = intrinsics.project(c) else { return nil }
    return (u, v, -c.z)
  }
}
