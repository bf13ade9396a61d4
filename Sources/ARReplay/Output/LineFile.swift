import ARFormats
import ARRender
import ARSession
import ARSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An append-only text file written with unbuffered `write(2)` calls, so every line handed to
/// `append` is in the kernel before the call returns: a killed run loses at most a partial
/// last line (DESIGN §7: events.jsonl and trace.jsonl are flushed per frame).
final class LineFile {
  private let fd: Int32
  let path: String
  /// Bytes written so far (the file's length, since it starts empty).
  private(set) var length = 0

  /// Creates or truncates `name` in `folder`; a symbolic link, device, FIFO, socket or folder
  /// at that name is refused (`OutputFolder.openTruncated(_:)`).
  /// - Throws: `InputError` `.cannotCreate`.
  init(truncating name: String, in folder: OutputFolder) throws {
    path = folder.shown(name)
    fd = try folder.openTruncated(name)
  }

  deinit { close(fd) }

  /// Appends text (callers add the newline).
  /// - Throws: `InputError` `.cannotCreate` on a write error (disk full).
  func append(_ text: String) throws {
    // A native string's UTF-8 is contiguous: written from its storage, no copy (B2's trace
    // lines are 3.8 MB per frame).
    let written: Void?? = try text.utf8.withContiguousStorageIfAvailable { units in
      try append(UnsafeRawBufferPointer(units))
    }
    if written == nil {
      try Array(text.utf8).withUnsafeBytes { try append($0) }
    }
  }

  private func append(_ bytes: UnsafeRawBufferPointer) throws {
    guard let base = bytes.baseAddress else { return }  // empty
    var offset = 0
    while offset < bytes.count {
      let n = write(fd, base + offset, bytes.count - offset)
      if n < 0 {
        if errno == EINTR { continue }
        throw InputError(
          .cannotCreate, InputLocation(file: path), String(cString: strerror(errno)))
      }
      offset += n
      length += n
    }
  }

  /// Cuts the file back to `length` bytes (lines of a frame that failed to commit).
  /// - Throws: `InputError` `.cannotCreate`.
  func truncate(to length: Int) throws {
    guard ftruncate(fd, off_t(length)) == 0 else {
      throw InputError(
        .cannotCreate, InputLocation(file: path), String(cString: strerror(errno)))
    }
    self.length = length
  }
}
