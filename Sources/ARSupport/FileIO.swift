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
  /// so readers never see a partial file under the final name. A symbolic link is followed
  /// (the file it resolves to is replaced, the link stays); a device, FIFO, socket or folder is
  /// refused, never renamed over (see `destination(for:)`).
  /// - Throws: `InputError` `.cannotCreate` naming the path and the system's reason.
  public static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
    let target = try destination(for: path)
    let temporary = try writeTemporary(bytes, for: target)
    try commit(temporary, to: target, named: path)
  }

  /// The file an atomic write of `path` must replace: `path` itself when it is missing or a
  /// regular file, else the file its symbolic links resolve to (`resolvingLinks(_:)`), so the
  /// link itself is kept.
  /// - Throws: `InputError` `.cannotCreate` naming `path` when it (or the end of its links) is
  ///   not a regular file (device, FIFO, socket, folder), which `rename` would replace, or when
  ///   the links loop.
  public static func destination(for path: String) throws -> String {
    let resolved = try resolvingLinks(path)
    var info = stat()
    if lstat(resolved, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
      throw notRegular(path, resolved: resolved, mode: info.st_mode)
    }
    return resolved
  }

  /// `path` with its symbolic links followed one by one (relative targets against the link's
  /// folder, like `realpath`), so a temporary file beside the result can be renamed onto it; a
  /// dangling link resolves to the file it names, which a write then creates. Whatever is at
  /// the result is not checked (`commit(_:to:named:)` refuses non-regular files).
  /// - Throws: `InputError` `.cannotCreate` naming `path` when the links loop or cannot be
  ///   read.
  public static func resolvingLinks(_ path: String) throws -> String {
    var current = path
    for _ in 0..<40 {
      var info = stat()
      guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let n = readlink(current, &buffer, buffer.count - 1)
      guard n > 0 else {
        throw InputError(
          .cannotCreate, InputLocation(file: path), String(cString: strerror(errno)))
      }
      let target = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if target.hasPrefix("/") {
        current = target
      } else if let slash = current.lastIndex(of: "/") {
        current = String(current[...slash]) + target
      } else {
        current = target
      }
    }
    throw InputError(.cannotCreate, InputLocation(file: path), "too many levels of symbolic links")
  }

  /// "is not a regular file (a FIFO)", naming where a link led.
  private static func notRegular(_ path: String, resolved: String, mode: mode_t) -> InputError {
    let kind: String
    switch mode & S_IFMT {
    case S_IFDIR: kind = "a folder"
    case S_IFIFO: kind = "a FIFO"
    case S_IFSOCK: kind = "a socket"
    case S_IFCHR: kind = "a character device"
    case S_IFBLK: kind = "a block device"
    case S_IFLNK: kind = "a symbolic link"
    default: kind = "a special file"
    }
    let via = resolved == path ? "" : " (via a symbolic link to \(resolved))"
    return InputError(
      .cannotCreate, InputLocation(file: path),
      "is not a regular file\(via) but \(kind); refusing to replace it")
  }

  /// Moves a temporary file written by `writeTemporary(_:for:)` to its final name (atomic
  /// `rename`); the temporary is removed if that fails. `path` must be a result of
  /// `destination(for:)`: anything there that is not a regular file (a symbolic link included)
  /// is refused, not replaced.
  /// - Parameter name: the path the user gave, for errors (default `path`).
  /// - Throws: `InputError` `.cannotCreate`.
  public static func commit(_ temporary: String, to path: String, named name: String? = nil)
    throws
  {
    var info = stat()
    if lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
      unlink(temporary)
      throw notRegular(name ?? path, resolved: path, mode: info.st_mode)
    }
    guard rename(temporary, path) != 0 else { return }
    let reason = String(cString: strerror(errno))
    unlink(temporary)
    throw InputError(.cannotCreate, InputLocation(file: name ?? path), reason)
  }

  /// Writes `bytes` to a temporary file beside `path` (`path.arsim-tmp-PID`) and returns its
  /// name; `commit(_:to:)` then publishes it.
  /// - Throws: `InputError` `.cannotCreate` naming the path and the system's reason.
  public static func writeTemporary(_ bytes: [UInt8], for path: String) throws -> String {
    let temporary = path + temporarySuffix + String(getpid())
    // A leftover of an earlier process with the same id goes first; O_EXCL then never writes
    // through whatever else may have been put under the temporary name.
    unlink(temporary)
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
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

  /// The identity of an existing file (device and inode, symbolic links followed), so that two
  /// spellings of one file (`a/../x`, a link, a hard link) compare equal; nil when `path` does
  /// not exist.
  public static func identity(of path: String) -> FileIdentity? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
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

/// A file's device and inode numbers (`stat(2)`), equal for every path naming the same file.
public struct FileIdentity: Hashable, Sendable {
  /// `st_dev`.
  public var device: UInt64
  /// `st_ino`.
  public var inode: UInt64
}
