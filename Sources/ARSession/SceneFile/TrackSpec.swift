import ARFormats
import ARSupport

/// A camera track as a scene file names it: the top-level `track` and every section that brings
/// its own (a collaborative scene's `participants[i].track`) decode through this one shape
/// (Documentation/SceneFile.md, "track").
public struct TrackSpec: Decodable, Sendable {
  /// Path to the track file, relative to the scene's folder.
  public var path: String
  /// Format name (`tum`, `arkit`, `kitti`, `euroc`, `arkitscenes`, `json`); detected if absent.
  public var format: String?
  /// Camera axes of the file (`opencv` or `arkit`); the format's default if absent.
  public var cameraAxes: String?
  /// World up axis of the file (`y`, `z`, `minusY`); the format's default if absent.
  public var worldUp: String?
  /// KITTI times file.
  public var times: String?
  /// EuRoC camera sensor.yaml (T_BS).
  public var sensor: String?
  /// Hold the end poses outside the track instead of failing (default false).
  public var clamp: Bool?

  /// The keys of a track object, for unknown-field warnings (`SessionKind.schema`).
  public static let fields: Set<String> = [
    "path", "format", "cameraAxes", "worldUp", "times", "sensor", "clamp",
  ]
}

extension SceneSection {
  /// Reads the track `spec` written at `field` (e.g. `collaboration.participants[1].track`)
  /// now, so that bad input fails before any output; adds the files it read to `inputPaths` and
  /// the reader's warnings to `warnings`.
  /// - Throws: `InputError` naming `field.format`, `field.cameraAxes`, `field.worldUp` for an
  ///   unknown name, `field.path` for a track without poses; the reader's located errors, a
  ///   missing file reworded to name the field (`reading(_:field:_:)`).
  public mutating func readTrack(_ spec: TrackSpec, field: String) throws -> CameraTrack {
    var options = TrackReadOptions()
    options.format = try choice(spec.format, TrackFormat.self, field: "\(field).format")
    options.cameraAxes = try choice(spec.cameraAxes, CameraAxes.self, field: "\(field).cameraAxes")
    options.worldUp = try choice(spec.worldUp, WorldUp.self, field: "\(field).worldUp")
    options.timesPath = try spec.times.map { try resolvePath($0, field: "\(field).times") }
    options.sensorPath = try spec.sensor.map { try resolvePath($0, field: "\(field).sensor") }
    let trackPath = try resolvePath(spec.path, field: "\(field).path")
    let track = try reading(trackPath, field: "\(field).path") {
      try reading(options.timesPath ?? "", field: "\(field).times") {
        try reading(options.sensorPath ?? "", field: "\(field).sensor") {
          try CameraTrack.read(path: trackPath, options: options)
        }
      }
    }
    guard !track.poses.isEmpty else { throw error("\(field).path", "the track has no poses") }
    warnings += track.warnings
    inputPaths += [trackPath] + [options.timesPath, options.sensorPath].compactMap { $0 }
    return track
  }
}
