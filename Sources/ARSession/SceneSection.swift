import ARSupport
import ARTracking

/// A session kind's view of the scene file being loaded while it checks its section: the
/// helpers every section uses (errors naming the scene file and field, paths against the
/// scene's folder, named choices), and what the section adds to the scene (files it reads,
/// warnings).
public struct SceneSection: Sendable {
  /// The scene file's path.
  public let sceneFilePath: String
  /// The scene file's folder ("" for a bare file name; kept relative when the path is).
  public let folder: String
  /// Every file the section reads (resolved paths): a run refuses to write an output over
  /// one of them.
  public var inputPaths: [String] = []
  /// Findings that do not stop loading, shown by `arsim render` and written to run.json.
  public var warnings: [String] = []
  /// Tracking-state keyframes the section adds to the scene's tracking timeline (the measure
  /// app's `measure.tracking`, an alias of the top-level `tracking.states`), in τ order, each
  /// with the field of its time (`measure.tracking[2].t`): the loader checks the times
  /// against the replay as it checks `tracking.states` and names that field.
  public private(set) var trackingKeyframes: [(keyframe: TrackingKeyframe, field: String)] = []

  /// Creates the context for the scene file at `sceneFilePath`.
  public init(sceneFilePath: String) {
    self.sceneFilePath = sceneFilePath
    if let slash = sceneFilePath.lastIndex(of: "/") {
      folder =
        slash == sceneFilePath.startIndex ? "/" : String(sceneFilePath[..<slash])
    } else {
      folder = ""
    }
  }

  /// Adds a keyframe to `trackingKeyframes`; `field` names its time in errors.
  public mutating func addTrackingKeyframe(_ keyframe: TrackingKeyframe, field: String) {
    trackingKeyframes.append((keyframe, field))
  }

  /// A `.badData` error naming the scene file and `field` (a path from the root, e.g.
  /// `measure.switchTimes`); the loader adds the line where the field is written.
  public func error(_ field: String, _ reason: String) -> InputError {
    InputError(.badData, InputLocation(file: sceneFilePath, field: field), reason)
  }

  /// A path from the scene, resolved against the scene's folder (absolute paths unchanged).
  public func resolvePath(_ p: String) -> String {
    p.hasPrefix("/") || folder.isEmpty ? p : (folder == "/" ? "/" + p : folder + "/" + p)
  }

  /// A path from the scene's `field`, resolved as by `resolvePath(_:)`.
  /// - Throws: `InputError` `.badData` naming the field when the path is empty (it would name
  ///   the scene's own folder) or holds a NUL character (the system would read the path only
  ///   up to it: `track.txt\0/../x` opens `track.txt`).
  public func resolvePath(_ p: String, field: String) throws -> String {
    guard !p.isEmpty else { throw error(field, "the path is empty") }
    guard !InputText.containsNUL(p) else {
      throw error(field, "the path \(InputText.quoted(p)) contains a NUL character")
    }
    return resolvePath(p)
  }

  /// Runs `body`, which reads the file `file` named by the scene's `field`; any error about
  /// that file or a file it names (a model's texture or buffer, a list's image) also names the
  /// field and the scene file (`InputError.namedBy`), not just the path.
  /// - Throws: what `body` throws; `InputError`s outside the scene file itself and any
  ///   `.missingInput` error about `file` get `namedBy` (once: the innermost field stays).
  public func reading<T>(_ file: String, field: String, _ body: () throws -> T) throws -> T {
    let namedBy = InputLocation(file: sceneFilePath, field: field)
    do {
      return try body()
    } catch var error as InputError
      where error.location.file != sceneFilePath && error.namedBy == nil
    {
      if error.kind == .missingInput, error.location.file == file { error.location.field = field }
      error.namedBy = namedBy
      throw error
    } catch let error as any LocatedError
      where error.kind == .missingInput && error.location.file == file
    {
      var named = InputError(.missingInput, InputLocation(file: file, field: field), error.reason)
      named.namedBy = namedBy
      throw named
    }
  }

  /// Parses a named choice (`"portrait"`, `"faithful"`); nil stays nil.
  /// - Throws: `InputError` naming `field` and listing the accepted names.
  public func choice<T: RawRepresentable & CaseIterable>(
    _ value: String?, _ type: T.Type, field: String
  ) throws -> T? where T.RawValue == String {
    guard let value else { return nil }
    guard let parsed = T(rawValue: value) else {
      let names = T.allCases.map(\.rawValue).joined(separator: ", ")
      throw error(field, "\(InputText.quoted(value)) is not one of \(names)")
    }
    return parsed
  }
}
