#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whole-file reads and atomic writes with POSIX calls (no Foundation in ARRender).
public enum FileIO {
  /// Reads a whole file of at most `maximumBytes` (default 1 GiB), so that a runaway file ends
  /// in an error instead of exhausting memory.
  /// - Throws: `InputError` `.missingInput` when it cannot be opened or is not a regular file
  ///   (`openInput(_:)`), `.badData` on a read error or when the file is longer than
  ///   `maximumBytes`.
  public static func read(_ path: String, maximumBytes: Int = 1 << 30) throws -> [UInt8] {
    let fd = try openInput(path)
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

  /// Reads at most the first `prefix` bytes of a file (fewer when it is shorter): a header.
  /// - Throws: as `read(_:maximumBytes:)`.
  public static func read(_ path: String, prefix: Int) throws -> [UInt8] {
    let fd = try openInput(path)
    defer { close(fd) }
    var out = [UInt8](repeating: 0, count: prefix)
    var filled = 0
    while filled < prefix {
      let n = out[filled...].withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw InputError(.badData, InputLocation(file: path), String(cString: strerror(errno)))
      }
      if n == 0 { break }
      filled += n
    }
    return Array(out[..<filled])
  }

  /// Opens an input file for reading and returns its descriptor (the caller closes it). The
  /// open does not block (`O_NONBLOCK`, cleared afterwards), and anything but a regular file —
  /// a FIFO, socket, device or folder — is refused, so a FIFO given as a track cannot hang a
  /// run and every input kind answers a folder the same way.
  /// - Throws: `InputError` `.badData` for a path with a NUL character (C would cut it there),
  ///   `.missingInput` (exit 66) when it cannot be opened or is not a regular file.
  public static func openInput(_ path: String) throws -> Int32 {
    guard !InputText.containsNUL(path) else {
      throw InputError(
        .badData, InputLocation(file: InputText.quoted(path)),
        "the path contains a NUL character")
    }
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else {
      throw InputError(.missingInput, InputLocation(file: path), String(cString: strerror(errno)))
    }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let reason = String(cString: strerror(errno))
      close(fd)
      throw InputError(.missingInput, InputLocation(file: path), reason)
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      close(fd)
      throw InputError(
        .missingInput, InputLocation(file: path),
        "is not a regular file but \(kindName(info.st_mode)); inputs must be regular files")
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    return fd
  }

  /// Checks, without opening it, that `path` is a regular file (symbolic links followed), so
  /// that an input read later or by a child process (ffmpeg, FreeType, the scene's hash) can
  /// never be a FIFO that blocks or a device that never ends.
  /// - Throws: `InputError` `.badData` for a path with a NUL character, `.missingInput` (exit
  ///   66) when it does not exist or is not a regular file, with the same reasons as
  ///   `openInput(_:)`.
  public static func checkRegularFile(_ path: String) throws {
    guard !InputText.containsNUL(path) else {
      throw InputError(
        .badData, InputLocation(file: InputText.quoted(path)),
        "the path contains a NUL character")
    }
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw InputError(.missingInput, InputLocation(file: path), String(cString: strerror(errno)))
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw InputError(
        .missingInput, InputLocation(file: path),
        "is not a regular file but \(kindName(info.st_mode)); inputs must be regular files")
    }
  }

  /// The suffix of temporary files; a crashed run may leave `NAME.arsim-tmp-PID` files, which
  /// `removeStaleTemporaryFiles(in:)` deletes.
  public static let temporarySuffix = ".arsim-tmp-"

  /// Writes `bytes` to `path` atomically: a temporary file in the same folder, then `rename`,
  /// so readers never see a partial file under the final name. Symbolic links in the folder's
  /// path are followed (`Output` may be a link to another disk), but not at the final name: a
  /// link, device, FIFO, socket or folder there is refused, never written through or renamed
  /// over (`OutputFolder`).
  /// - Throws: `InputError` `.cannotCreate` naming the path and the system's reason.
  public static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
    let (folder, name) = split(path)
    try OutputFolder(folder, shownAs: folder.isEmpty ? "." : folder)
      .writeAtomically(bytes, name: name)
  }

  /// The path an atomic write of `path` replaces: `path` itself, once checked — symbolic links
  /// at the final name are not followed (`OutputFolder.checkReplaceable(_:)`).
  /// - Throws: `InputError` `.cannotCreate` naming `path` when a symbolic link, device, FIFO,
  ///   socket or folder is there (a folder that cannot be opened is left to the write).
  public static func destination(for path: String) throws -> String {
    let (folder, name) = split(path)
    // A folder that cannot be opened holds nothing to check; the write itself reports it.
    guard let open = try? OutputFolder(folder, shownAs: folder.isEmpty ? "." : folder) else {
      return path
    }
    try open.checkReplaceable(name)
    return path
  }

  /// Renames `temporary` (a file in the same folder) onto `path` after checking what is there
  /// (`destination(for:)`); the temporary is removed when that fails. A link planted after the
  /// check is replaced by the rename, never followed.
  /// - Parameter name: the path the user gave, for errors (default `path`).
  /// - Throws: `InputError` `.cannotCreate`.
  public static func commit(_ temporary: String, to path: String, named name: String? = nil)
    throws
  {
    do {
      _ = try destination(for: path)
    } catch let error as InputError {
      unlink(temporary)
      throw InputError(error.kind, InputLocation(file: name ?? path), error.reason)
    }
    guard rename(temporary, path) != 0 else { return }
    let reason = String(cString: strerror(errno))
    unlink(temporary)
    throw InputError(.cannotCreate, InputLocation(file: name ?? path), reason)
  }

  /// `path` split into its folder ("" for the current one) and final name.
  static func split(_ path: String) -> (folder: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return ("", path) }
    let folder = String(path[..<slash])
    return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
  }

  /// "a FIFO", "a folder", … for an `st_mode`.
  static func kindName(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFDIR: return "a folder"
    case S_IFIFO: return "a FIFO"
    case S_IFSOCK: return "a socket"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFLNK: return "a symbolic link"
    default: return "a special file"
    }
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

  /// `path` with every symbolic link, `.` and `..` resolved (POSIX `realpath`), or nil when a
  /// component does not exist.
  public static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// The last component of `path`, trailing slashes ignored ("out" for `runs/out/`, "/" for
  /// `/`, "." for `.`). Foundation's `NSString.lastPathComponent` and
  /// `deletingLastPathComponent` trap on some one-character paths on Linux, so ARSim uses these.
  public static func lastComponent(_ path: String) -> String {
    let trimmed = withoutTrailingSlashes(path)
    return trimmed == "/" ? "/" : split(trimmed).name
  }

  /// `path` without trailing slashes (`runs/out/` → `runs/out`), `/` kept.
  public static func withoutTrailingSlashes(_ path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    return String(trimmed)
  }

  /// The folder that holds `path`, links, `.` and `..` resolved (`realPath`), or nil when
  /// `path` does not exist; `/` for `/`.
  public static func parentFolder(of path: String) -> String? {
    guard let resolved = realPath(path) else { return nil }
    return resolved == "/" ? "/" : split(resolved).folder
  }

  /// Whether `path` exists and, links resolved, lies outside `folder` (links resolved too): the
  /// check that keeps a link inside an input folder from reading a file elsewhere.
  public static func leadsOutside(_ path: String, folder: String) -> Bool {
    guard let resolved = realPath(path), let base = realPath(folder) else { return false }
    return !(resolved + "/").hasPrefix(base == "/" ? "/" : base + "/")
  }

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
