import ARSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a text file one line at a time through a fixed-size buffer, so huge files never sit in
/// memory whole and an absurdly long line is reported instead of buffered; or the lines of
/// bytes already in memory (`init(bytes:path:)`).
///
/// Lines end at `\n`; a trailing `\r` is dropped; the last line needs no newline. A UTF-8
/// byte-order mark (EF BB BF) at the start of the file is skipped, as scene JSON and stroke logs
/// skip it (Windows editors write one).
final class TrackLineReader {
  /// The longest line accepted, in bytes (64 KiB; real track lines are under 300 bytes).
  static let maximumLineBytes = 1 << 16

  let path: String
  /// The 1-based number of the line last returned (0 before the first).
  private(set) var lineNumber = 0
  private let fileDescriptor: Int32
  private var buffer: [UInt8] = []
  private var start = 0
  private var endOfFile = false
  /// The bytes of one `read(2)`, allocated once (appending a chunk of zeros per read costs
  /// 64 Ki element-by-element stores in an unoptimised build).
  private var chunk: [UInt8] = []
  private static let chunkBytes = 1 << 16

  /// Opens `path`.
  /// - Throws: `TrackReadError` `.missingInput` when the file cannot be opened or is not a
  ///   regular file (`FileIO.openInput(_:)`), `.badData` for a path with a NUL.
  init(path: String) throws {
    self.path = path
    let fd: Int32
    do {
      fd = try FileIO.openInput(path)
    } catch let error as InputError {
      throw TrackReadError(error.kind, file: error.location.file, error.reason)
    }
    fileDescriptor = fd
  }

  /// Reads the lines of `bytes` (a whole file in memory); `path` names it in errors.
  init(bytes: [UInt8], path: String) {
    self.path = path
    fileDescriptor = -1
    buffer = bytes
    endOfFile = true
  }

  deinit { if fileDescriptor >= 0 { close(fileDescriptor) } }

  /// The next line without its terminator, or `nil` at the end of the file.
  /// - Throws: `TrackReadError` `.badData` for a line over `maximumLineBytes`, `.missingInput`
  ///   for a read error.
  func nextLine() throws -> String? {
    while true {
      if let newline = nextNewline() {
        let line = try makeLine(buffer[start..<newline])
        start = newline + 1
        return line
      }
      if buffer.count - start > Self.maximumLineBytes {
        throw TrackReadError(
          file: path, line: lineNumber + 1,
          "line is longer than \(Self.maximumLineBytes) bytes; not a track file?")
      }
      if endOfFile {
        guard start < buffer.count else { return nil }
        let line = try makeLine(buffer[start...])
        start = buffer.count
        return line
      }
      try fill()
    }
  }

  /// The index of the first line feed at or after `start` (`memchr`: a generic
  /// `firstIndex(of:)` is unspecialised, one call per byte, in an unoptimised build).
  private func nextNewline() -> Int? {
    guard start < buffer.count else { return nil }
    return buffer.withUnsafeBufferPointer { all -> Int? in
      guard let base = all.baseAddress,
        let found = memchr(base + start, 0x0a, all.count - start)
      else { return nil }
      return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
  }

  private func makeLine(_ bytes: ArraySlice<UInt8>) throws -> String {
    lineNumber += 1
    if bytes.count > Self.maximumLineBytes {
      throw TrackReadError(
        file: path, line: lineNumber,
        "line is longer than \(Self.maximumLineBytes) bytes; not a track file?")
    }
    var bytes = bytes
    if lineNumber == 1, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    var text = String(decoding: bytes, as: UTF8.self)
    if text.hasSuffix("\r") { text.removeLast() }
    return text
  }

  private func fill() throws {
    if start > 0 {
      buffer.removeFirst(start)
      start = 0
    }
    if chunk.isEmpty { chunk = [UInt8](repeating: 0, count: Self.chunkBytes) }
    var n = 0
    repeat {
      n = chunk.withUnsafeMutableBytes { raw in read(fileDescriptor, raw.baseAddress, raw.count) }
    } while n < 0 && errno == EINTR
    if n < 0 {
      throw TrackReadError(
        .missingInput, file: path, line: lineNumber + 1, String(cString: strerror(errno)))
    }
    if n == 0 {
      endOfFile = true
    } else {
      chunk.withUnsafeBufferPointer { buffer.append(contentsOf: $0[0..<n]) }
    }
  }
}
