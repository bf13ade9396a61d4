import ARSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Concatenates JSON Lines files into a temporary file beside `target`, streaming (a long run's
/// `trace.jsonl` can be gigabytes), and renames it into place on `commit`.
///
/// Each line is checked while it is copied: it must be complete (end with a line feed), and
/// when it names a frame — the first `"frame":` key in its first 4 KiB, which is where ARSim
/// writes it, before any nested value — that frame must be one of its shard's frames and not
/// smaller than the previous line's, so the result is in frame order and no shard's lines
/// repeat another's.
struct LineConcatenation {
  let target: String
  private let destination: String
  private let temporary: String
  private var fd: Int32
  /// Only check the lines (`init(checking:)`): nothing is written.
  private let checksOnly: Bool
  /// Lines written.
  private(set) var lines = 0
  /// Lines that named a frame.
  private(set) var framedLines = 0

  private static let headLength = 4096

  /// Opens the temporary file.
  /// - Throws: `InputError` `.cannotCreate`.
  init(target: String) throws {
    self.target = target
    destination = try FileIO.destination(for: target)
    temporary = destination + FileIO.temporarySuffix + String(getpid())
    unlink(temporary)
    fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
    checksOnly = false
    guard fd >= 0 else {
      throw InputError(.cannotCreate, InputLocation(file: target), String(cString: strerror(errno)))
    }
  }

  /// A concatenation that only checks the lines `append` reads and counts them, writing
  /// nothing (`arsim merge` checks every shard before it writes; `commit` is not called).
  init(checking target: String) {
    self.target = target
    destination = target
    temporary = ""
    fd = -1
    checksOnly = true
  }

  /// Appends `path`'s lines.
  /// - Parameters:
  ///   - frames: the shard's frames (nil: it has none, so no line may name a frame).
  ///   - everyFrameOnce: for `trace.jsonl`, the frames that must each have exactly one line,
  ///     in this order.
  /// - Throws: `InputError` `.missingInput` when the file cannot be read, `.badData` naming the
  ///   file and line of a line that is incomplete or names a wrong frame, `.cannotCreate` on a
  ///   write error.
  mutating func append(_ path: String, frames: ClosedRange<Int>?, everyFrameOnce: [Int]?)
    throws
  {
    let input: Int32
    do {
      input = try FileIO.openInput(path)  // a FIFO in a shard folder must not hang the merge
    } catch {
      abandon()
      throw error
    }
    defer { close(input) }
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    var head: [UInt8] = []
    var inHead = true
    var line = 0
    var previous = Int.min
    var traced: [Int] = []
    var endsWithNewline = true
    do {
      while true {
        let n = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
        if n < 0 {
          if errno == EINTR { continue }
          throw InputError(.badData, InputLocation(file: path), String(cString: strerror(errno)))
        }
        if n == 0 { break }
        try write(chunk, count: n)
        endsWithNewline = chunk[n - 1] == 0x0a
        var start = 0
        while start < n {
          var end = start
          while end < n, chunk[end] != 0x0a { end += 1 }
          if inHead {
            head.append(contentsOf: chunk[start..<min(end, start + Self.headLength - head.count)])
            if head.count >= Self.headLength { inHead = false }
          }
          guard end < n else { break }  // the line goes on in the next chunk
          line += 1
          if let frame = Self.frame(in: head) {
            guard let frames, frames.contains(frame) else {
              throw InputError(
                .badData, InputLocation(file: path, line: line, field: "frame"),
                "frame \(frame) is not one of this shard's frames "
                  + (frames.map { "\($0.lowerBound)..\($0.upperBound)" } ?? "(none)"))
            }
            guard frame >= previous else {
              throw InputError(
                .badData, InputLocation(file: path, line: line, field: "frame"),
                "frame \(frame) comes after frame \(previous): the lines are not in frame order")
            }
            previous = frame
            if everyFrameOnce != nil { traced.append(frame) }
            framedLines += 1
          }
          lines += 1
          head.removeAll(keepingCapacity: true)
          inHead = true
          start = end + 1
        }
      }
      guard endsWithNewline else {
        throw InputError(
          .badData, InputLocation(file: path, line: line + 1),
          "the last line is incomplete (no line feed): the shard was interrupted")
      }
      if let expected = everyFrameOnce, traced != expected {
        throw InputError(
          .badData, InputLocation(file: path),
          "has trace lines for frames " + describeFrames(traced) + " but run.json lists "
            + describeFrames(expected) + " (each written frame has exactly one trace line)")
      }
    } catch {
      abandon()
      throw error
    }
  }

  /// Renames the temporary file onto the target.
  /// - Throws: `InputError` `.cannotCreate`.
  mutating func commit() throws {
    let result = close(fd)
    fd = -1
    guard result == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw InputError(.cannotCreate, InputLocation(file: target), reason)
    }
    try FileIO.commit(temporary, to: destination, named: target)
  }

  /// Removes the temporary file without publishing it.
  mutating func abandon() {
    if fd >= 0 { close(fd) }
    fd = -1
    if !checksOnly { unlink(temporary) }
  }

  private mutating func write(_ bytes: [UInt8], count: Int) throws {
    guard !checksOnly else { return }
    var written = 0
    while written < count {
      let n = bytes.withUnsafeBytes { buffer in
        Glibc.write(fd, buffer.baseAddress.map { $0 + written }, count - written)
      }
      if n < 0 {
        if errno == EINTR { continue }
        throw InputError(
          .cannotCreate, InputLocation(file: target), String(cString: strerror(errno)))
      }
      written += n
    }
  }

  /// The integer after the first `"frame":` in `head`.
  static func frame(in head: [UInt8]) -> Int? {
    guard var i = find(Array("\"frame\":".utf8), in: head) else { return nil }
    while i < head.count, head[i] == 0x20 { i += 1 }
    var value = 0
    var digits = 0
    while i < head.count, (0x30...0x39).contains(head[i]), digits < 12 {
      value = value * 10 + Int(head[i] - 0x30)
      digits += 1
      i += 1
    }
    return digits > 0 ? value : nil
  }

  /// The index just after the first occurrence of `needle`.
  private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    var i = 0
    while i + needle.count <= haystack.count {
      if haystack[i] == needle[0], haystack[i..<(i + needle.count)].elementsEqual(needle) {
        return i + needle.count
      }
      i += 1
    }
    return nil
  }
}
