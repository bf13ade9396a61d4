#if canImport(Glibc)
  import Glibc
#endif

/// A check of a finished MP4's top-level boxes (ISO/IEC 14496-12: a 32-bit big-endian size,
/// a four-character type, a 64-bit size when the first is 1, "to the end of the file" when
/// it is 0), made before the video is published: ffmpeg can exit 0 after failing to write its
/// trailer (a full disk), leaving a file without its `moov` index that no player opens.
enum MP4Structure {
  /// Why the file at `path` is not a complete MP4, or nil when its top-level boxes cover the
  /// file exactly and include `ftyp`, `moov` and `mdat`.
  static func problem(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { return "cannot open it: \(String(cString: strerror(errno)))" }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      return "it is not a regular file"
    }
    let length = Int64(info.st_size)
    var offset: Int64 = 0
    var types: Set<String> = []
    // Bounded: each box is at least 8 bytes, and a file has at most a few of them.
    while offset < length, types.count <= 64 {
      var header = [UInt8](repeating: 0, count: 16)
      let got = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 16, off_t(offset)) }
      guard got >= 8 else { return "it ends inside a box header at byte \(offset)" }
      var size = header[0..<4].reduce(Int64(0)) { $0 << 8 | Int64($1) }
      let type = String(decoding: header[4..<8], as: UTF8.self)
      if size == 1 {
        guard got == 16 else { return "it ends inside box '\(type)''s header" }
        size = header[8..<16].reduce(Int64(0)) { $0 << 8 | Int64($1) }
      } else if size == 0 {
        size = length - offset
      }
      guard size >= 8, size <= length - offset else {
        return "box '\(type)' at byte \(offset) needs \(size) bytes but the file ends after "
          + "\(length - offset) (truncated)"
      }
      types.insert(type)
      offset += size
    }
    for needed in ["ftyp", "moov", "mdat"] where !types.contains(needed) {
      return "it has no '\(needed)' box (\(length) bytes)"
    }
    return nil
  }
}
