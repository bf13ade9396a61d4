#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whole-file reads and atomic writes with POSIX calls (no Foundation in ARRender).
public enum FileIO {
  /// Reads a whole file of at most `maximumBytes` (default 1 GiB), so that a device such as
  /// `/dev/zero` or a runaway file ends in an error instead of exhausting memory.
  /// - Throws: `InputError` `.missingInput` when it cannot be opened, `.badData` on a read error
  ///   or when the file is longer than `maximumBytes`.
  public static func read(_ path: String, maximumBytes: Int = 1 << 30) throws -> [UInt8] {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else {
      throw InputError(.missingInput, InputLocation(file: path), String(cString: strerror(errno)))
    }
    defer { close(fd) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw InputError(.badData, InputLocation(file: path), String(cString: strerror(errno)))
      }
      if n == 0 { break }
      guard out.count + n <= maximumBytes else {
        throw InputError(
          .badData, InputLocation(file: path),
          "longer than \(maximumBytes >> 20) MiB, the limit for this kind of file")
      }
      out.append(contentsOf: chunk[0..<n])
    }
    return out
  }

  /// The suffix of temporary files; a crashed run may leave `NAME.arsim-tmp-PID` files, which
  /// `removeStaleTemporaryFiles(in:)` deletes.
  public static let temporarySuffix = ".arsim-tmp-"

  /// Writes `bytes` to `path` atomically: a temporary file in the same folder, then `rename`,
  /// so readers never see a partial file under the final name.
  /// - Throws: `InputError` `.cannotCreate` naming the path and the system's reason.
  public static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
    let temporary = try writeTemporary(bytes, for: path)
    try commit(temporary, to: path)
  }

  /// Moves a temporary file written by `writeTemporary(_:for:)` to its final name (atomic
  /// `rename`); the temporary is removed if that fails.
  /// - Throws: `InputError` `.cannotCreate`.
  public static func commit(_ temporary: String, to path: String) throws {
    guard rename(temporary, path) != 0 else { return }
    let reason = String(cString: strerror(errno))
    unlink(temporary)
    throw InputError(.cannotCreate, InputLocation(file: path), reason)
  }

  /// Writes `bytes` to a temporary file beside `path` (`path.arsim-tmp-PID`) and returns its
  /// name; `commit(_:to:)` then publishes it.
  /// - Throws: `InputError` `.cannotCreate` naming the path and the system's reason.
  public static func writeTemporary(_ bytes: [UInt8], for path: String) throws -> String {
    let temporary = path + temporarySuffix + String(getpid())
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else {
      throw InputError(.cannotCreate, InputLocation(file: path), String(cString: strerror(errno)))
    }
    var written = 0
    var failure: Int32 = 0
    bytes.withUnsafeBytes { buffer in
      while written < buffer.count {
        let n = Glibc.write(fd, buffer.baseAddress.map { $0 + written }, buffer.count - written)
        if n < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        written += n
      }
    }
    close(fd)
    if failure == 0 { return temporary }
    unlink(temporary)
    throw InputError(.cannotCreate, InputLocation(file: path), String(cString: strerror(failure)))
  }

  /// Deletes `*.arsim-tmp-*` files left in `directory` by an interrupted run.
  public static func removeStaleTemporaryFiles(in directory: String) {
    guard let dir = opendir(directory) else { return }
    defer { closedir(dir) }
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      if name.contains(temporarySuffix) { unlink(directory + "/" + name) }
    }
  }

  /// Whether a path exists (file or folder).
  public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

  /// Creates a folder and its parents (like `mkdir -p`).
  /// - Throws: `InputError` `.cannotCreate` when a component cannot be made.
  public static func createDirectory(_ path: String) throws {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
      prefix += component
      if mkdir(prefix, 0o755) != 0, errno != EEXIST {
        throw InputError(
          .cannotCreate, InputLocation(file: prefix), String(cString: strerror(errno)))
      }
      prefix += "/"
    }
  }
}
