import ARMath
import ARSupport

/// The fixed rotations that take a file's world and camera axes to ARKit's (DESIGN §4).
///
/// `worldFromCamera(ARKit) = worldFix · worldFromCamera(file) · cameraFix`.
struct TrackFrameConversion: Hashable, Sendable {
  /// ARKit world from the file's world: identity, Rx(−90°) for z up, Rx(180°) for y down.
  var arkitWorldFromFileWorld: RigidTransform
  /// The file's camera from the ARKit camera: identity, diag(1, −1, −1) = Rx(180°) for an
  /// OpenCV camera (flip Y and Z), Rz(−90°) for the Android sensor frame.
  var fileCameraFromARKitCamera: RigidTransform

  init(cameraAxes: CameraAxes, worldUp: WorldUp) {
    let half = (0.5).squareRoot()
    switch worldUp {
    case .y: arkitWorldFromFileWorld = .identity
    // Rx(−90°): (x, y, z) ↦ (x, z, −y); q = (sin(−45°), 0, 0, cos 45°).
    case .z:
      arkitWorldFromFileWorld = RigidTransform(
        rotation: Quaternion(x: -half, y: 0, z: 0, w: half), translation: .zero)
    // Rx(180°): (x, y, z) ↦ (x, −y, −z).
    case .minusY:
      arkitWorldFromFileWorld = RigidTransform(
        rotation: Quaternion(x: 1, y: 0, z: 0, w: 0), translation: .zero)
    }
    switch cameraAxes {
    case .arkit: fileCameraFromARKitCamera = .identity
    case .opencv:
      fileCameraFromARKitCamera = RigidTransform(
        rotation: Quaternion(x: 1, y: 0, z: 0, w: 0), translation: .zero)
    // Rz(−90°): the camera's +X is the sensor's −Y, its +Y the sensor's +X (CameraAxes).
    case .androidSensor:
      fileCameraFromARKitCamera = RigidTransform(
        rotation: Quaternion(x: 0, y: 0, z: -half, w: half), translation: .zero)
    }
  }

  /// Converts a file pose to ARKit frames.
  func convert(_ fileWorldFromFileCamera: RigidTransform) -> RigidTransform {
    let r = arkitWorldFromFileWorld * fileWorldFromFileCamera * fileCameraFromARKitCamera
    return RigidTransform(rotation: r.rotation.normalized ?? r.rotation, translation: r.translation)
  }
}

/// Rotation checks shared by the readers: unit quaternions and orthonormal matrices.
struct RotationValidator {
  /// Quaternions whose norm is off 1 by more than this are rejected.
  static let quaternionNormTolerance = 1e-3
  /// Matrices whose `max|R·Rᵀ − I|` exceeds this are rejected.
  static let matrixRejectTolerance = 1e-2
  /// Matrices whose `max|R·Rᵀ − I|` exceeds this are re-orthonormalised with a warning.
  static let matrixRepairTolerance = 1e-5

  let path: String
  private(set) var repairedCount = 0
  private(set) var largestRepairedError = 0.0
  private(set) var largestRepairedLine: Int?

  init(path: String) { self.path = path }

  /// A unit quaternion from `q`, normalised when its norm is within tolerance.
  func unitQuaternion(_ q: Quaternion, line: Int?, field: String) throws -> Quaternion {
    let norm = q.norm
    guard abs(norm - 1) <= Self.quaternionNormTolerance, let unit = q.normalized else {
      throw TrackReadError(
        file: path, line: line, field: field,
        "quaternion norm \(norm) is not 1 (tolerance \(Self.quaternionNormTolerance))")
    }
    return unit
  }

  /// The rotation of a nearly orthonormal matrix, re-orthonormalised when its error is above
  /// `matrixRepairTolerance` (counted for one warning).
  mutating func rotation(_ m: Matrix3, line: Int?, field: String) throws -> Quaternion {
    let error = m.orthonormalityError
    guard error <= Self.matrixRejectTolerance else {
      throw TrackReadError(
        file: path, line: line, field: field,
        "rotation is not orthonormal: max |R·Rᵀ − I| = \(error) (tolerance"
          + " \(Self.matrixRejectTolerance))")
    }
    guard m.determinant > 0 else {
      throw TrackReadError(
        file: path, line: line, field: field,
        "rotation has determinant \(m.determinant): a reflection, not a rotation")
    }
    var rotation = m
    if error > Self.matrixRepairTolerance {
      guard let repaired = m.orthonormalized else {
        throw TrackReadError(file: path, line: line, field: field, "rotation is degenerate")
      }
      rotation = repaired
      repairedCount += 1
      if error > largestRepairedError {
        largestRepairedError = error
        largestRepairedLine = line
      }
    }
    let q = Quaternion(rotationMatrix: rotation)
    return q.normalized ?? q
  }

  /// The warning for repaired rotations, if any.
  var warning: String? {
    guard repairedCount > 0 else { return nil }
    let whereText = largestRepairedLine.map { " at line \($0)" } ?? ""
    return "re-orthonormalised \(repairedCount) rotation(s) with max |R·Rᵀ − I| above"
      + " \(Self.matrixRepairTolerance) (largest \(largestRepairedError)\(whereText))"
  }
}
