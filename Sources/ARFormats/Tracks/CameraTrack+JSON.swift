import ARMath
import ARSupport
import ARTracking
import Foundation

extension CameraTrack {
  /// The largest JSON track accepted, in bytes (JSON is parsed whole, unlike the text formats).
  static let maximumJSONBytes = 256 << 20

  /// Reads ARSim's JSON track:
  /// `{"format": "arsim-track", "version": 1, "poses": [{"t": s, "worldFromCamera": [16]}]}`,
  /// matrices column-major (like `simd_float4x4`), already in ARKit frames unless the options
  /// say otherwise.
  /// - Throws: `TrackReadError` naming the line and field of every problem (the line where the
  ///   field, or else its enclosing value, is written: `JSONSerialization` gives no positions).
  static func readJSON(path: String, options: TrackReadOptions) throws -> CameraTrack {
    let bytes: [UInt8]
    do {
      bytes = try FileIO.read(path)
    } catch let error as InputError {
      throw TrackReadError(error.kind, file: path, error.reason)
    }
    do {
      return try readJSON(bytes: bytes, path: path, options: options)
    } catch var error as TrackReadError where error.location.line == nil {
      error.location.line =
        error.location.field.flatMap { JSONSyntaxLocator.line(ofField: $0, in: bytes) } ?? 1
      throw error
    }
  }

  private static func readJSON(bytes: [UInt8], path: String, options: TrackReadOptions) throws
    -> CameraTrack
  {
    guard bytes.count <= maximumJSONBytes else {
      throw TrackReadError(file: path, "JSON track is larger than \(maximumJSONBytes) bytes")
    }
    let root: Any
    do {
      root = try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)
    } catch {
      guard let problem = JSONSyntaxLocator.firstProblem(in: bytes) else {
        // Valid to the locator, refused by Foundation (e.g. an escaped lone surrogate).
        throw TrackReadError(file: path, line: 1, "not JSON that Foundation reads")
      }
      throw TrackReadError(
        file: path, line: problem.line, field: problem.field,
        "invalid JSON at column \(problem.column), byte \(problem.byteOffset): \(problem.reason)")
    }
    guard let object = root as? [String: Any] else {
      throw TrackReadError(file: path, line: 1, "expected a JSON object at the top level")
    }
    guard object["format"] as? String == "arsim-track" else {
      throw TrackReadError(file: path, field: "format", "expected \"arsim-track\"")
    }
    guard let version = object["version"] as? Int, version == 1 else {
      let written = JSONSyntaxLocator.numberText(ofField: "version", in: bytes)
      throw TrackReadError(
        file: path, field: "version",
        "expected version 1" + (written.map { ", found " + InputText.quoted($0) } ?? ""))
    }
    guard let entries = object["poses"] as? [Any] else {
      throw TrackReadError(file: path, field: "poses", "expected an array of poses")
    }
    let conversion = TrackFrameConversion(
      cameraAxes: options.cameraAxes ?? TrackFormat.json.defaultCameraAxes,
      worldUp: options.worldUp ?? TrackFormat.json.defaultWorldUp)
    var validator = RotationValidator(path: path)
    var warnings: [String] = []
    for key in object.keys.sorted() where !["format", "version", "poses"].contains(key) {
      let line = JSONSyntaxLocator.line(ofField: key, in: bytes).map { ":\($0)" } ?? ""
      warnings.append(
        "\(InputText.escaped(path))\(line): field \(InputText.quoted(key)) is not a track field; ignored"
      )
    }
    var poses: [TimedPose] = []
    var trackingStates: [(timeSeconds: Double, state: TrackingState)] = []
    poses.reserveCapacity(entries.count)
    for (index, entry) in entries.enumerated() {
      let name = "poses[\(index)]"
      guard let pose = entry as? [String: Any] else {
        throw TrackReadError(file: path, field: name, "expected an object")
      }
      for key in pose.keys.sorted() where !["t", "worldFromCamera", "trackingState"].contains(key) {
        let line = JSONSyntaxLocator.line(ofField: name, in: bytes).map { ":\($0)" } ?? ""
        warnings.append(
          "\(InputText.escaped(path))\(line): field \(InputText.quoted(name + "." + key)) is not a pose field; "
            + "ignored")
      }
      guard let t = finiteNumber(pose["t"]) else {
        throw TrackReadError(file: path, field: name + ".t", "expected a finite number")
      }
      if let last = poses.last, !(t > last.timeSeconds) {
        throw TrackReadError(
          file: path, field: name + ".t",
          "time \(t) s is not after the previous pose's \(last.timeSeconds) s")
      }
      let field = name + ".worldFromCamera"
      guard let list = pose["worldFromCamera"] as? [Any], list.count == 16 else {
        throw TrackReadError(file: path, field: field, "expected 16 numbers (column-major 4×4)")
      }
      var elements: [Double] = []
      for item in list {
        guard let value = finiteNumber(item) else {
          throw TrackReadError(file: path, field: field, "expected finite numbers")
        }
        elements.append(value)
      }
      let m = Matrix4(columnMajor: elements)
      let bottom = [m[3, 0], m[3, 1], m[3, 2], m[3, 3]]
      guard zip(bottom, [0.0, 0, 0, 1]).allSatisfy({ abs($0 - $1) <= 1e-9 }) else {
        throw TrackReadError(
          file: path, field: field, "the bottom row is \(bottom), not [0, 0, 0, 1]")
      }
      let q = try validator.rotation(m.upperLeft3x3, line: nil, field: field)
      try checkPosition(m.translation, file: path, line: nil, field: field)
      let filePose = RigidTransform(rotation: q, translation: m.translation)
      poses.append(TimedPose(timeSeconds: t, worldFromCamera: conversion.convert(filePose)))
      if let value = pose["trackingState"] {
        let line = JSONSyntaxLocator.line(ofField: name + ".trackingState", in: bytes)
        let place = "\(InputText.escaped(path))\(line.map { ":\($0)" } ?? "")"
        if let text = value as? String, let state = TrackingState(name: text) {
          if trackingStates.last?.state != state { trackingStates.append((t, state)) }
        } else {
          let shown = (value as? String).map { InputText.quoted($0) } ?? "a non-string value"
          warnings.append(
            "\(place): field \(InputText.quoted(name + ".trackingState")): \(shown) is not a "
              + "tracking state (\(TrackingState.namesList)); ignored")
        }
      }
    }
    guard !poses.isEmpty else { throw TrackReadError(file: path, "the track has no poses") }
    if let warning = validator.warning { warnings.append(warning) }
    var track = CameraTrack(poses: poses, format: .json, warnings: warnings)
    track.trackingStates = trackingStates
    return track
  }

  /// The farthest camera position accepted, in metres from the track's origin (1000 km):
  /// beyond it `Double` arithmetic loses the millimetres AR needs, so such a track is refused
  /// rather than rendered wrong.
  static let maximumPositionMetres = 1e6

  /// - Throws: `TrackReadError` when a coordinate of `position` exceeds
  ///   `maximumPositionMetres`.
  static func checkPosition(_ position: Vector3, file: String, line: Int?, field: String) throws {
    guard max(abs(position.x), abs(position.y), abs(position.z)) <= maximumPositionMetres else {
      throw TrackReadError(
        file: file, line: line, field: field,
        "position (\(position.x), \(position.y), \(position.z)) m is farther than "
          + "\(maximumPositionMetres) m from the origin")
    }
  }

  private static func finiteNumber(_ value: Any?) -> Double? {
    // Booleans are NSNumbers too; their Objective-C type code is "c" (char).
    guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else {
      return nil
    }
    let d = number.doubleValue
    return d.isFinite ? d : nil
  }

  /// ARSim's JSON track text for these poses (ARKit frames, matrices column-major), one pose
  /// per line so it diffs well; numbers are shortest round-trip `Double` text.
  public var jsonText: String {
    var out = "{\"format\":\"arsim-track\",\"version\":1,\"poses\":[\n"
    for (index, pose) in poses.enumerated() {
      let entry = JSONValue.object([
        ("t", .number(pose.timeSeconds)),
        ("worldFromCamera", .numbers(pose.worldFromCamera.matrix.columnMajorElements)),
      ])
      out += entry.text + (index + 1 < poses.count ? ",\n" : "\n")
    }
    return out + "]}\n"
  }
}
