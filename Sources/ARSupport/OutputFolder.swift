#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An open output folder: every output is created, checked and renamed relative to the
/// folder's descriptor (`openat`, `fstatat`, `renameat`), so the folder cannot be swapped for
/// another between a check and the rename, and nothing is ever written through a symbolic link
/// at an output's own name (`O_NOFOLLOW`): another local user who can write into the folder
/// cannot turn `trace.jsonl` or a frame name into a link that overwrites their choice of file.
/// Links in the folder's own path (`Output` → another disk) are followed when it is opened.
///
/// Thread-safety: the descriptor never changes; each method is a few system calls on it.
public final class OutputFolder: @unchecked Sendable {
  /// The folder's path as the user gave it (for messages).
  public let path: String
  private let descriptor: Int32

  /// Opens an existing folder (`""` is the current one).
  /// - Parameter shownAs: how messages name the folder (default `path`).
  /// - Throws: `InputError` `.cannotCreate` when it cannot be opened as a folder.
  public init(_ path: String, shownAs: String? = nil) throws {
    self.path = shownAs ?? path
    let fd = open(path.isEmpty ? "." : path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else {
      throw InputError(
        .cannotCreate, InputLocation(file: shownAs ?? path), String(cString: strerror(errno)))
    }
    descriptor = fd
  }

  deinit { close(descriptor) }

  /// `folder/name`, for messages (`/name` in `/`, not `//name`).
  public func shown(_ name: String) -> String {
    path == "." ? name : path.hasSuffix("/") ? path + name : path + "/" + name
  }

  /// Refuses what an output may not replace at `name`: a symbolic link, device, FIFO, socket
  /// or folder; a missing name or a regular file is fine.
  /// - Throws: `InputError` `.cannotCreate` (exit 73).
  public func checkReplaceable(_ name: String) throws {
    var info = stat()
    guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return }
    let mode = info.st_mode & S_IFMT
    if mode == S_IFLNK { throw linkRefusal(name) }
    if mode != S_IFREG {
      throw InputError(
        .cannotCreate, InputLocation(file: shown(name)),
        "is not a regular file but \(FileIO.kindName(info.st_mode)); refusing to replace it")
    }
  }

  private func linkRefusal(_ name: String) -> InputError {
    InputError(
      .cannotCreate, InputLocation(file: shown(name)),
      "is a symbolic link; outputs are never written through a link at their own name "
        + "(remove it, or link the folder instead)")
  }

  /// Writes `bytes` under `name` atomically (temporary file, then `renameat`).
  /// - Throws: `InputError` `.cannotCreate`.
  public func writeAtomically(_ bytes: [UInt8], name: String) throws {
    try checkReplaceable(name)
    let temporary = try writeTemporary(bytes, for: name)
    try commit(temporary, to: name)
  }

  /// Writes `bytes` to `NAME.arsim-tmp-PID` in the folder and returns that name; `commit`
  /// then publishes it. Created with `O_EXCL | O_NOFOLLOW`, so nothing planted under the
  /// temporary name is written through.
  /// - Throws: `InputError` `.cannotCreate` naming the output and the system's reason.
  public func writeTemporary(_ bytes: [UInt8], for name: String) throws -> String {
    try bytes.withUnsafeBytes { try writeTemporary($0, for: name) }
  }

  /// `writeTemporary(_:for:)` from memory the caller owns (an encoder's buffer, written
  /// without a copy of its own).
  /// - Throws: `InputError` `.cannotCreate` naming the output and the system's reason.
  public func writeTemporary(_ bytes: UnsafeRawBufferPointer, for name: String) throws -> String {
    let temporary = name + FileIO.temporarySuffix + String(getpid())
    // A leftover of an earlier process with the same id goes first.
    unlinkat(descriptor, temporary, 0)
    let fd = openat(
      descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw InputError(
        .cannotCreate, InputLocation(file: shown(name)), String(cString: strerror(errno)))
    }
    var written = 0
    var failure: Int32 = 0
    while written < bytes.count {
      let n = write(fd, bytes.baseAddress.map { $0 + written }, bytes.count - written)
      if n < 0 {
        if errno == EINTR { continue }
        failure = errno
        break
      }
      written += n
    }
    close(fd)
    if failure == 0 { return temporary }
    unlinkat(descriptor, temporary, 0)
    throw InputError(
      .cannotCreate, InputLocation(file: shown(name)), String(cString: strerror(failure)))
  }

  /// Renames a temporary file of `writeTemporary` onto `name` (the temporary is removed when
  /// that fails). Whatever is at `name` is checked first (`checkReplaceable`); a link planted
  /// after the check is replaced by the rename itself, never followed.
  /// - Throws: `InputError` `.cannotCreate`.
  public func commit(_ temporary: String, to name: String) throws {
    do {
      try checkReplaceable(name)
    } catch {
      unlinkat(descriptor, temporary, 0)
      throw error
    }
    guard renameat(descriptor, temporary, descriptor, name) != 0 else { return }
    let reason = String(cString: strerror(errno))
    unlinkat(descriptor, temporary, 0)
    throw InputError(.cannotCreate, InputLocation(file: shown(name)), reason)
  }

  /// Removes `name` (a regular file) if present.
  /// - Throws: `InputError` `.cannotCreate` when it is a link or special file, or cannot be
  ///   removed.
  public func remove(_ name: String) throws {
    try checkReplaceable(name)
    if unlinkat(descriptor, name, 0) != 0, errno != ENOENT {
      throw InputError(
        .cannotCreate, InputLocation(file: shown(name)), String(cString: strerror(errno)))
    }
  }

  /// Creates or truncates `name` for appending and returns the descriptor (the caller closes
  /// it). `O_NOFOLLOW` refuses a link, `O_NONBLOCK` keeps a FIFO from blocking the open, and
  /// anything but a regular file is refused before it is truncated.
  /// - Throws: `InputError` `.cannotCreate`.
  public func openTruncated(_ name: String) throws -> Int32 {
    try checkReplaceable(name)
    let fd = openat(
      descriptor, name,
      O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      if errno == ELOOP { throw linkRefusal(name) }
      throw InputError(
        .cannotCreate, InputLocation(file: shown(name)), String(cString: strerror(errno)))
    }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      close(fd)
      throw InputError(
        .cannotCreate, InputLocation(file: shown(name)),
        "is not a regular file but \(FileIO.kindName(info.st_mode)); refusing to replace it")
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    return fd
  }

  /// The names arsim's commands write at the top of an output folder: the run's files
  /// (Design §7: `run.json`, `events.jsonl`, `trace.jsonl`, `messages.jsonl`, `report.html`),
  /// the live commands' (`receive.json`, `received.jsonl`, `strokes-received.jsonl`), the
  /// `helper/` folder of `--helper-view`, and the frame and depth names (`frame_00012.png`).
  public static let runEntryNames: Set<String> = [
    "run.json", "events.jsonl", "trace.jsonl", "messages.jsonl", "report.html", "receive.json",
    "received.jsonl", "strokes-received.jsonl", "helper",
  ]

  /// Whether a subfolder called `name` would collide with the folder's own entries: one of
  /// `runEntryNames`, a frame or depth name, or a hidden name (the lock `.arsim-lock` and the
  /// temporary files start with a dot, and `arsim merge` skips hidden entries).
  public static func isOwnEntryName(_ name: String) -> Bool {
    runEntryNames.contains(name) || name.hasPrefix(".") || FrameFileName.parse(name) != nil
  }

  /// The name of the lock file `lock(waiting:)` takes in the folder.
  public static let lockName = ".arsim-lock"

  /// Takes the folder's exclusive lock (`flock(2)` on `.arsim-lock`, created if missing), so
  /// two runs never write into one folder at once. The lock is held until the returned value
  /// is released; the kernel drops it when the process ends, however it ends, so a killed run
  /// never leaves the folder locked. The holder writes its process id into the file, which a
  /// refused writer quotes.
  /// - Parameters:
  ///   - waiting: block until the lock is free instead of failing.
  ///   - notice: called once, before blocking, when `waiting` and another process holds the
  ///     lock, with `waiting for pid N's lock on FOLDER` (so a waiting command does not look
  ///     hung); never called when the lock is free.
  /// - Throws: `InputError` `.temporaryFailure` (exit 75) when another process holds it and
  ///   `waiting` is false; `.cannotCreate` when the lock file cannot be made.
  public func lock(waiting: Bool, notice: ((String) -> Void)? = nil) throws -> OutputFolderLock {
    try checkReplaceable(Self.lockName)
    let fd = openat(
      descriptor, Self.lockName, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw InputError(
        .cannotCreate, InputLocation(file: shown(Self.lockName)),
        String(cString: strerror(errno)))
    }
    // Tried without blocking first, so a waiting run can say whom it waits for.
    var blocks = false
    while flock(fd, LOCK_EX | (blocks ? 0 : LOCK_NB)) != 0 {
      if errno == EINTR { continue }
      let busy = errno == EWOULDBLOCK
      if busy, waiting, !blocks {
        blocks = true
        let holder = Self.holder(fd).map { "pid \($0)'s" } ?? "another process's"
        notice?("waiting for \(holder) lock on \(path)")
        continue
      }
      let reason = String(cString: strerror(errno))
      let holder = busy ? Self.holder(fd) : nil
      close(fd)
      guard busy else {
        throw InputError(.cannotCreate, InputLocation(file: shown(Self.lockName)), reason)
      }
      throw InputError(
        .temporaryFailure, InputLocation(file: path),
        "another arsim process\(holder.map { " (pid \($0))" } ?? "") is writing into this "
          + "folder (it holds \(shown(Self.lockName))); wait for it, choose another output "
          + "folder, or pass --wait-for-lock")
    }
    let text = Array("\(getpid())\n".utf8)
    if ftruncate(fd, 0) == 0 {
      _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }
    return OutputFolderLock(descriptor: fd)
  }

  /// The process id the lock's holder wrote, if it reads as one.
  private static func holder(_ fd: Int32) -> Int? {
    var bytes = [UInt8](repeating: 0, count: 24)
    let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    guard n > 0 else { return nil }
    return Int(String(decoding: bytes[0..<n], as: UTF8.self).split(separator: "\n").first ?? "")
  }
}

/// A held `OutputFolder` lock; released by `release()` or when the value is freed.
public final class OutputFolderLock: @unchecked Sendable {
  private var descriptor: Int32

  init(descriptor: Int32) { self.descriptor = descriptor }

  /// Releases the lock (the lock file stays, empty of meaning). Unlocks before closing: a child
  /// forked meanwhile shares the open file until it closes its copy, and `flock` would stay held.
  public func release() {
    guard descriptor >= 0 else { return }
    flock(descriptor, LOCK_UN)
    close(descriptor)
    descriptor = -1
  }

  deinit { release() }
}
