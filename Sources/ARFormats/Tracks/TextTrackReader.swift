import ARMath
import ARSupport

/// Reads the line-based formats (TUM, ARKit data logger, KITTI, EuRoC, ARKitScenes) one line at
/// a time, validating each field and converting each pose to ARKit frames.
struct TextTrackReader {
  let path: String
  let format: TrackFormat
  let options: TrackReadOptions
  private var validator: RotationValidator
  private var warnings: [String] = []

  /// The file's bytes when they are in memory already (`CameraTrack.read(bytes:file:options:)`).
  private let bytes: [UInt8]?

  init(path: String, format: TrackFormat, options: TrackReadOptions, bytes: [UInt8]? = nil) {
    self.path = path
    self.bytes = bytes
    self.format = format
    self.options = options
    self.validator = RotationValidator(path: path)
  }

  /// The header comment an ARSim-written TUM file carries to declare ARKit frames.
  static let arkitFramesDeclaration = "# arsim: cameraAxes=arkit worldUp=y"

  mutating func read() throws -> CameraTrack {
    let lines =
      try bytes.map { TrackLineReader(bytes: $0, path: path) } ?? TrackLineReader(path: path)
    let kittiTimes = try format == .kitti ? readKITTITimes() : nil
    var bodyFromCamera: RigidTransform?
    if format == .euroc {
      if let sensorPath = options.sensorPath {
        bodyFromCamera = try EuRoCSensorFile.bodyFromSensor(path: sensorPath)
      } else {
        warnings.append(
          "no sensor.yaml given: EuRoC poses are the IMU body frame's, not a camera's")
      }
    }
    var cameraAxes = options.cameraAxes ?? format.defaultCameraAxes
    var worldUp = options.worldUp ?? format.defaultWorldUp
    var conversion = TrackFrameConversion(cameraAxes: cameraAxes, worldUp: worldUp)
    var poses: [TimedPose] = []
    var previous: (time: Double, line: Int)?
    while let line = try lines.nextLine() {
      let number = lines.lineNumber
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      if trimmed.isEmpty { continue }
      if trimmed.hasPrefix("#") {
        if format == .tum, poses.isEmpty, line == Self.arkitFramesDeclaration {
          cameraAxes = options.cameraAxes ?? .arkit
          worldUp = options.worldUp ?? .y
          conversion = TrackFrameConversion(cameraAxes: cameraAxes, worldUp: worldUp)
        }
        continue
      }
      var (time, pose) = try parse(fields: split(trimmed), line: number)
      if format == .kitti {
        if let kittiTimes {
          guard poses.count < kittiTimes.count else {
            throw TrackReadError(
              file: options.timesPath ?? path,
              "has \(kittiTimes.count) times but the track has more poses (line \(number))")
          }
          time = kittiTimes[poses.count]
        } else {
          time = Double(poses.count) / 10
        }
      }
      if let previous, !(time > previous.time) {
        throw TrackReadError(
          file: path, line: number, field: format.columnNames.first,
          "time \(time) s is not after the previous pose's \(previous.time) s"
            + " (line \(previous.line))")
      }
      previous = (time, number)
      try CameraTrack.checkPosition(
        pose.translation, file: path, line: number, field: "position")
      if let bodyFromCamera { pose = pose * bodyFromCamera }
      poses.append(TimedPose(timeSeconds: time, worldFromCamera: conversion.convert(pose)))
    }
    guard !poses.isEmpty else { throw TrackReadError(file: path, "the track has no poses") }
    if let kittiTimes, kittiTimes.count != poses.count {
      throw TrackReadError(
        file: options.timesPath ?? path,
        "has \(kittiTimes.count) times for \(poses.count) poses in \(path)")
    }
    if format == .kitti, kittiTimes == nil {
      warnings.append("no times file given: KITTI poses are assumed 0.1 s apart (10 Hz)")
    }
    if let warning = validator.warning { warnings.append(warning) }
    return CameraTrack(poses: poses, format: format, warnings: warnings)
  }

  private func split(_ line: Substring) -> [Substring] {
    if format == .euroc {
      return line.split(separator: ",", omittingEmptySubsequences: false).map {
        $0.drop { $0 == " " || $0 == "\t" }
      }
    }
    return line.split(whereSeparator: { $0 == " " || $0 == "\t" })
  }

  /// The file time (seconds; KITTI's is replaced by the caller) and the pose in file frames.
  private mutating func parse(fields: [Substring], line: Int) throws -> (Double, RigidTransform) {
    let names = format.columnNames
    let countOK = format == .euroc ? fields.count >= names.count : fields.count == names.count
    guard countOK else {
      let expected = format == .euroc ? "at least \(names.count)" : "\(names.count)"
      throw TrackReadError(
        file: path, line: line,
        field: fields.count < names.count ? names[fields.count] : "column \(names.count + 1)",
        "expected \(expected) columns for \(format.rawValue), found \(fields.count)")
    }
    var values: [Double] = []
    values.reserveCapacity(names.count)
    for (index, name) in names.enumerated() {
      values.append(try number(fields[index], line: line, field: name))
    }
    switch format {
    case .tum:
      let q = try validator.unitQuaternion(
        Quaternion(x: values[4], y: values[5], z: values[6], w: values[7]), line: line,
        field: "qx qy qz qw")
      return (
        values[0],
        RigidTransform(rotation: q, translation: Vector3(values[1], values[2], values[3]))
      )
    case .arkit:
      let seconds = nanosecondsToSeconds(fields[0], values[0])
      return (seconds, try matrixPose(Array(values[1...]), line: line))
    case .kitti:
      return (0, try matrixPose(values, line: line))
    case .euroc:
      let q = try validator.unitQuaternion(
        Quaternion(x: values[5], y: values[6], z: values[7], w: values[4]), line: line,
        field: "q_RS_w q_RS_x q_RS_y q_RS_z")
      return (
        nanosecondsToSeconds(fields[0], values[0]),
        RigidTransform(rotation: q, translation: Vector3(values[1], values[2], values[3]))
      )
    case .arcore:
      // `Frame.getAndroidSensorPose()`: quaternion first (x y z w), translation last.
      let q = try validator.unitQuaternion(
        Quaternion(x: values[1], y: values[2], z: values[3], w: values[4]), line: line,
        field: "qx qy qz qw")
      return (
        nanosecondsToSeconds(fields[0], values[0]),
        RigidTransform(rotation: q, translation: Vector3(values[5], values[6], values[7]))
      )
    case .arkitscenes:
      // Angle-axis: the direction is the axis, the length the angle in radians.
      let axis = Vector3(values[1], values[2], values[3])
      let cameraFromWorld = RigidTransform(
        rotation: Quaternion(axis: axis, angleRadians: axis.length),
        translation: Vector3(values[4], values[5], values[6]))
      return (values[0], cameraFromWorld.inverse)
    case .json:
      throw TrackReadError(file: path, line: line, "JSON tracks are not line-based")
    }
  }

  /// A 3×4 row-major `[R | t]`.
  private mutating func matrixPose(_ e: [Double], line: Int) throws -> RigidTransform {
    let m = Matrix3(rowMajor: [e[0], e[1], e[2], e[4], e[5], e[6], e[8], e[9], e[10]])
    let q = try validator.rotation(m, line: line, field: "r11 … r33")
    return RigidTransform(rotation: q, translation: Vector3(e[3], e[7], e[11]))
  }

  private func number(_ text: Substring, line: Int, field: String) throws -> Double {
    guard let value = InputText.double(text) else {
      throw TrackReadError(
        file: path, line: line, field: field, "\(InputText.quoted(text)) is not a number")
    }
    guard value.isFinite else {
      throw TrackReadError(
        file: path, line: line, field: field, "\(InputText.quoted(text)) is not a finite number")
    }
    return value
  }

  /// Integer nanoseconds to seconds without losing the sub-second digits of a large count.
  private func nanosecondsToSeconds(_ text: Substring, _ value: Double) -> Double {
    guard let ns = Int64(text) else { return value / 1e9 }
    return Double(ns / 1_000_000_000) + Double(ns % 1_000_000_000) / 1e9
  }

  /// KITTI times, one per line, strictly increasing.
  private func readKITTITimes() throws -> [Double]? {
    guard let timesPath = options.timesPath else { return nil }
    let lines = try TrackLineReader(path: timesPath)
    var times: [Double] = []
    while let line = try lines.nextLine() {
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
      let fields = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard fields.count == 1 else {
        throw TrackReadError(
          file: timesPath, line: lines.lineNumber, field: "time",
          "expected 1 column, found \(fields.count)")
      }
      guard let t = InputText.double(fields[0]), t.isFinite else {
        throw TrackReadError(
          file: timesPath, line: lines.lineNumber, field: "time",
          "\(InputText.quoted(fields[0])) is not a finite number")
      }
      if let last = times.last, !(t > last) {
        throw TrackReadError(
          file: timesPath, line: lines.lineNumber, field: "time",
          "time \(t) s is not after the previous time \(last) s")
      }
      times.append(t)
    }
    return times
  }
}
