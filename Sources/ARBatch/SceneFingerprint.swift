import ARSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a run's output depends on besides ARSim itself: the bytes of the scene file and of every
/// input it names, hashed, so that shards rendered on different machines can be checked to come
/// from the same scene before they are merged (`run.json` `sceneHash`, `sceneInputs`).
///
/// `sceneHash` is `sha256:` + the SHA-256 of the text made of one line per file, in the order
/// of `files`: the file's SHA-256 in hexadecimal and a line feed. `files` are the scene file
/// and then its inputs in the loader's order (`ReplayScene.inputPaths`: track, times, sensor,
/// each app section's inputs, background images). Paths are not hashed: the scene file's own
/// bytes hold the paths as written (relative to the scene), and a checkout in another folder
/// or on another machine is the same scene. Command-line options are not hashed either:
/// `--threads` does not change the bytes and `--frames`/`--shard` are recorded in `shard`.
public struct SceneFingerprint: Sendable, Equatable {
  /// One hashed file.
  public struct File: Sendable, Equatable {
    /// The path as the scene resolved it (machine-specific; informative only).
    public var path: String
    /// SHA-256 of its bytes, 64 lowercase hexadecimal digits.
    public var sha256: String
    /// Its length in bytes.
    public var bytes: Int
    /// Whether the file was not there: only a recorded camera image may be missing (the run
    /// warns and keeps the previous image); `sha256` is then that of no bytes.
    public var missing = false
  }

  /// The scene file and its inputs, in order.
  public var files: [File]

  /// `sha256:` and 64 hexadecimal digits (see the type's description).
  public var sceneHash: String {
    var hash = SHA256()
    for file in files { hash.update(Array(((file.missing ? "missing" : file.sha256) + "\n").utf8)) }
    return "sha256:" + hash.hexDigest()
  }

  /// Hashes `paths` (the scene file first). Each path is hashed once, at its first place. A
  /// path in `mayBeMissing` (recorded camera images) that does not exist is listed as missing
  /// (its line in `sceneHash` is `missing`), as the run shows the previous image for it.
  /// - Throws: `InputError` `.missingInput` when a file cannot be opened or is not a regular
  ///   file (`FileIO.openInput(_:)`), `.badData` on a read error.
  public init(paths: [String], mayBeMissing: Set<String> = []) throws {
    var seen: Set<String> = []
    files = []
    for path in paths where seen.insert(path).inserted {
      files.append(try Self.hash(path, mayBeMissing: mayBeMissing.contains(path)))
    }
  }

  private static func hash(_ path: String, mayBeMissing: Bool) throws -> File {
    if mayBeMissing, !FileIO.exists(path) {
      return File(path: path, sha256: SHA256().hexDigest(), bytes: 0, missing: true)
    }
    // The input rule: a FIFO or device named by the scene is refused, never read.
    let fd = try FileIO.openInput(path)
    defer { close(fd) }
    var hash = SHA256()
    var total = 0
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw InputError(.badData, InputLocation(file: path), String(cString: strerror(errno)))
      }
      if n == 0 { break }
      hash.update(chunk[0..<n])
      total += n
    }
    return File(path: path, sha256: hash.hexDigest(), bytes: total)
  }
}
