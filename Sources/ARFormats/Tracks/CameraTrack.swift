import ARMath
import ARSupport
import ARTracking

/// A recorded camera trajectory converted to ARKit frames, sorted by strictly increasing time.
///
/// Every pose is `worldFromCamera` (camera-to-world, `ARCamera.transform`) with ARKit's world
/// (right-handed, metres, +Y up) and camera (+X right, +Y up, looking down −Z), whatever the
/// file's own conventions were (DESIGN §4; Documentation/CameraTracks.md).
public struct CameraTrack: Hashable, Sendable {
  /// The poses, at least one, times strictly increasing.
  public var poses: [TimedPose]
  /// The format the track was read from.
  public var format: TrackFormat
  /// Things the reader fixed or assumed (e.g. re-orthonormalised rotations, KITTI without
  /// times), one sentence each.
  public var warnings: [String]
  /// ARKit tracking states recorded with the poses, in time order (file clock, seconds), each
  /// holding until the next: only ARSim's JSON track carries them (`poses[].trackingState`);
  /// none of the other formats records one (Documentation/Tracking.md).
  public var trackingStates: [(timeSeconds: Double, state: TrackingState)] = []

  /// Equal poses, format, warnings and recorded tracking states.
  public static func == (a: CameraTrack, b: CameraTrack) -> Bool {
    a.poses == b.poses && a.format == b.format && a.warnings == b.warnings
      && a.trackingStates.elementsEqual(b.trackingStates) { $0 == $1 }
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(poses)
    hasher.combine(format)
    hasher.combine(warnings)
    for (time, state) in trackingStates {
      hasher.combine(time)
      hasher.combine(state)
    }
  }

  /// Creates a track from poses already in ARKit frames.
  ///
  /// Precondition: the poses' times strictly increase (not checked here; readers check).
  public init(poses: [TimedPose], format: TrackFormat, warnings: [String] = []) {
    self.poses = poses
    self.format = format
    self.warnings = warnings
  }

  /// Reads a track file and converts it to ARKit frames.
  ///
  /// The format is `options.format`, or detected: extension `.traj` → `arkitscenes`, `.csv` →
  /// `euroc`, `.json` → `json`, otherwise the first data line's column count (8 → `tum` or
  /// `arcore`, by where the unit quaternion is; 12 → `kitti`, 13 → `arkit`). Lines starting with `#` and blank lines are skipped.
  /// Quaternions within 1e-3 of unit length are normalised; rotation matrices whose
  /// `|R·Rᵀ − I|` exceeds 1e-5 are re-orthonormalised (a warning), beyond 1e-2 rejected.
  ///
  /// - Complexity: O(n) in the file size; lines are read one at a time.
  /// - Throws: `TrackReadError` naming file, line and column: `.missingInput` for a file that
  ///   cannot be read; `.badData` for a wrong column count, a non-number, NaN or infinity, a time
  ///   not after the previous one, a quaternion off unit length by more than 1e-3, a rotation
  ///   off orthonormal by more than 1e-2, a line over 64 KiB, an undetectable format, a bad
  ///   side file (KITTI times, EuRoC sensor.yaml) or no poses at all.
  public static func read(path: String, options: TrackReadOptions = .init()) throws -> CameraTrack {
    let format = try options.format ?? detectFormat(path: path)
    var track: CameraTrack
    if format == .json {
      track = try readJSON(path: path, options: options)
    } else {
      var reader = TextTrackReader(path: path, format: format, options: options)
      track = try reader.read()
    }
    track.warnings += unusedSideFiles(format: format, options: options)
    track.warnings += coarseTimeWarnings(track.poses)
    return track
  }

  /// The finest time step, seconds, a track's times must resolve: a tenth of a millisecond
  /// (frames are 1/30 … 1/240 s apart). Double resolves it up to about 5.5 · 10¹¹ s.
  public static let timeResolutionSeconds = TimeResolution.seconds

  /// A warning when the times lie so far from 0 that Double no longer resolves
  /// `timeResolutionSeconds` there (say 10³⁰⁰ s: consecutive frames then fall on one time
  /// and the camera freezes without another word).
  static func coarseTimeWarnings(_ poses: [TimedPose]) -> [String] {
    let largest = max(abs(poses.first?.timeSeconds ?? 0), abs(poses.last?.timeSeconds ?? 0))
    return TimeResolution.warning(
      largest: largest, closer: "frames", consequence: " (the camera stands still)"
    ).map { [$0] } ?? []
  }

  /// Warnings for side files `format` does not read: times are KITTI's (its poses carry no
  /// time), the sensor file EuRoC's (its poses are the IMU body's); given with another format
  /// they would be silently ignored.
  static func unusedSideFiles(format: TrackFormat, options: TrackReadOptions) -> [String] {
    var warnings: [String] = []
    if let times = options.timesPath, format != .kitti {
      warnings.append(
        "the times file \(InputText.quotedPath(times)) is not read: only KITTI tracks take one "
          + "(this track is \(format.rawValue), its poses carry their times)")
    }
    if let sensor = options.sensorPath, format != .euroc {
      warnings.append(
        "the sensor file \(InputText.quotedPath(sensor)) is not read: only EuRoC tracks take "
          + "one (this track is \(format.rawValue))")
    }
    return warnings
  }

  /// Reads a line-based track (TUM, ARKit, KITTI, EuRoC, ARKitScenes, ARCore) whose bytes
  /// are in memory, exactly as `read(path:options:)` reads the file (`file` names it in
  /// errors; side files such as KITTI times and EuRoC's sensor.yaml are still read from
  /// `options`' paths). The fuzz targets use it.
  /// - Throws: as `read(path:options:)`; `.badData` when `options.format` is nil or `.json`
  ///   (give the format: there is no extension or file to detect it from).
  public static func read(bytes: [UInt8], file: String, options: TrackReadOptions) throws
    -> CameraTrack
  {
    guard let format = options.format, format != .json else {
      throw TrackReadError(file: file, "give a line-based format to read a track from memory")
    }
    var reader = TextTrackReader(path: file, format: format, options: options, bytes: bytes)
    var track = try reader.read()
    track.warnings += coarseTimeWarnings(track.poses)
    return track
  }

  /// The format of a file judged by its extension, else by its first data line.
  /// - Throws: `TrackReadError` when the file cannot be read, has no data line, or the column
  ///   count matches no format.
  public static func detectFormat(path: String) throws -> TrackFormat {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    if let dot = name.lastIndex(of: ".") {
      switch name[name.index(after: dot)...].lowercased() {
      case "traj": return .arkitscenes
      case "csv": return .euroc
      case "json": return .json
      default: break
      }
    }
    let lines = try TrackLineReader(path: path)
    while let line = try lines.nextLine() {
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
      let fields = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
      let count = fields.count
      switch count {
      case 8: return try tumOrARCore(fields, path: path, line: lines.lineNumber)
      case 12: return .kitti
      case 13: return .arkit
      default:
        throw TrackReadError(
          file: path, line: lines.lineNumber,
          "cannot tell the track format from \(count) columns: expected TUM (8 columns),"
            + " KITTI (12) or the ARKit data logger (13); EuRoC (.csv), ARKitScenes (.traj) and"
            + " JSON (.json) are told by extension; name it with --format"
            + " tum|arkit|kitti|euroc|arkitscenes|json|arcore")
      }
    }
    throw TrackReadError(file: path, "the track has no poses")
  }

  /// TUM (`t tx ty tz qx qy qz qw`) or the ARCore data logger (`ns qx qy qz qw tx ty tz`), both
  /// 8 columns, told apart by where the unit quaternion is and by ARCore's integer nanosecond
  /// time. A line that fits neither reads as TUM (its reader then names the bad column).
  /// - Throws: `TrackReadError` when the line fits both, asking for `--format`.
  static func tumOrARCore(_ fields: [Substring], path: String, line: Int) throws -> TrackFormat {
    let values = fields.map { InputText.double($0) ?? .nan }
    func isUnit(_ range: Range<Int>) -> Bool {
      let norm = values[range].reduce(0) { $0 + $1 * $1 }.squareRoot()
      return abs(norm - 1) <= RotationValidator.quaternionNormTolerance
    }
    let arcoreLike = fields[0].allSatisfy(\.isASCIIDigit) && isUnit(1..<5)
    guard arcoreLike else { return .tum }
    guard isUnit(4..<8) else { return .arcore }
    throw TrackReadError(
      file: path, line: line,
      "8 columns fit both TUM (t tx ty tz qx qy qz qw) and the ARCore data logger "
        + "(ns qx qy qz qw tx ty tz); name it with --format tum or --format arcore")
  }
}

extension Character {
  /// `0`…`9`.
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
