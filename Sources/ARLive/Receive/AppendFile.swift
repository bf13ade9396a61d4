import ARRender

#if canImport(Glibc)
  import Glibc
#endif

/// A text file that lines are appended to with unbuffered `write(2)` calls, so every line is
/// in the kernel when `append` returns: a killed or interrupted receiver keeps all complete
/// lines (a partial last line at most).
final class AppendFile: @unchecked Sendable {  // one writer at a time
  private let fd: Int32
  let path: String

  /// Creates `path`, emptied when `truncating` (links followed; devices, FIFOs and folders
  /// refused).
  /// - Throws: `InputError` `.cannotCreate`.
  init(_ path: String, truncating: Bool) throws {
    self.path = path
    let target = try FileIO.destination(for: path)
    fd = open(
      target, O_WRONLY | O_CREAT | (truncating ? O_TRUNC : 0) | O_APPEND | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw InputError(.cannotCreate, InputLocation(file: path), errnoText())
    }
  }

  deinit { close(fd) }

  /// Appends `text` (the caller adds the newline).
  /// - Throws: `InputError` `.cannotCreate` (disk full).
  func append(_ text: String) throws {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw InputError(.cannotCreate, InputLocation(file: path), errnoText())
      }
      bytes = bytes.dropFirst(n)
    }
  }
}
