import ARSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a text file one line at a time through a fixed-size buffer, so huge files never sit in
/// memory whole and an absurdly long line is reported instead of buffered.
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

  deinit { close(fileDescriptor) }

  /// The next line without its terminator, or `nil` at the end of the file.
  /// - Throws: `TrackReadError` `.badData` for a line over `maximumLineBytes`, `.missingInput`
  ///   for a read error.
  func nextLine() throws -> String? {
    while true {
      if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
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
    let chunkBytes = 1 << 16
    let oldCount = buffer.count
    buffer.append(contentsOf: repeatElement(0, count: chunkBytes))
    var n = 0
    repeat {
      n = buffer.withUnsafeMutableBytes { raw in
        read(fileDescriptor, raw.baseAddress.map { $0 + oldCount }, chunkBytes)
      }
    } while n < 0 && errno == EINTR
    if n < 0 {
      buffer.removeLast(chunkBytes)
      throw TrackReadError(
        .missingInput, file: path, line: lineNumber + 1, String(cString: strerror(errno)))
    }
    buffer.removeLast(chunkBytes - n)
    if n == 0 { endOfFile = true }
  }
}
