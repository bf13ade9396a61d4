import ARMath
import ARSupport
import Foundation

/// Statistics of a camera track, in ARKit world frames: what `arsim track info` prints.
public struct TrackSummary: Hashable, Sendable {
  /// The file format.
  public var format: TrackFormat
  /// The number of poses.
  public var count: Int
  /// The first pose's time, seconds (file clock).
  public var firstSeconds: Double
  /// The last pose's time, seconds (file clock).
  public var lastSeconds: Double
  /// `lastSeconds − firstSeconds`.
  public var durationSeconds: Double
  /// `(count − 1) / durationSeconds`, Hz; 0 for a single pose.
  public var meanRateHertz: Double
  /// The largest time between consecutive poses, seconds; 0 for a single pose.
  public var largestGapSeconds: Double
  /// The summed distance between consecutive camera positions, metres.
  public var pathLengthMetres: Double
  /// The smallest camera position per axis, metres, ARKit world.
  public var boundingBoxMinimum: Vector3
  /// The largest camera position per axis, metres, ARKit world.
  public var boundingBoxMaximum: Vector3
  /// The reader's warnings.
  public var warnings: [String]
  /// How many tracking-state changes the track records (0 = none: every format but JSON).
  public var trackingStateChanges: Int

  /// Summarises a track.
  /// - Complexity: O(n).
  public init(_ track: CameraTrack) {
    format = track.format
    count = track.poses.count
    firstSeconds = track.startSeconds
    lastSeconds = track.endSeconds
    durationSeconds = lastSeconds - firstSeconds
    meanRateHertz = count > 1 && durationSeconds > 0 ? Double(count - 1) / durationSeconds : 0
    var gap = 0.0
    var length = 0.0
    var low = track.poses.first?.worldFromCamera.translation ?? .zero
    var high = low
    for (a, b) in zip(track.poses, track.poses.dropFirst()) {
      gap = max(gap, b.timeSeconds - a.timeSeconds)
      length += a.worldFromCamera.translation.distance(to: b.worldFromCamera.translation)
    }
    for pose in track.poses {
      let p = pose.worldFromCamera.translation
      low = Vector3(min(low.x, p.x), min(low.y, p.y), min(low.z, p.z))
      high = Vector3(max(high.x, p.x), max(high.y, p.y), max(high.z, p.z))
    }
    largestGapSeconds = gap
    pathLengthMetres = length
    boundingBoxMinimum = low
    boundingBoxMaximum = high
    warnings = track.warnings
    trackingStateChanges = track.trackingStates.count
  }

  /// Aligned `name: value` lines, e.g. `format:       tum`, `duration:     30.09 s`; the
  /// warnings are not among them (`arsim track info` prints those on standard error).
  public var textLines: [String] {
    func vector(_ v: Vector3) -> String { String(format: "(%.3f, %.3f, %.3f) m", v.x, v.y, v.z) }
    let rows: [(String, String)] = [
      ("format", format.rawValue),
      ("poses", String(count)),
      ("first time", String(format: "%.6f s", firstSeconds)),
      ("last time", String(format: "%.6f s", lastSeconds)),
      ("duration", String(format: "%.2f s", durationSeconds)),
      ("mean rate", String(format: "%.2f Hz", meanRateHertz)),
      ("largest gap", String(format: "%.4f s", largestGapSeconds)),
      ("path length", String(format: "%.2f m", pathLengthMetres)),
      ("bounds min", vector(boundingBoxMinimum)),
      ("bounds max", vector(boundingBoxMaximum)),
      (
        "tracking",
        trackingStateChanges == 0
          ? "no recorded tracking state" : "\(trackingStateChanges) recorded state changes"
      ),
    ]
    let width = (rows.map(\.0.count).max() ?? 0) + 2
    return rows.map { name, value in
      (name + ":").padding(toLength: width, withPad: " ", startingAt: 0) + value
    }
  }
}
