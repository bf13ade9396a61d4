import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Reading a JSON Lines file (`trace.jsonl`, `events.jsonl`, `messages.jsonl`) a block at a
/// time, so that memory holds one line, not the file (a dense run's trace is gigabytes).
enum JSONLines {
  /// Calls `visit` with each line's number (1-based) and bytes, without the `\n`, in file
  /// order; a line longer than `maximumLineBytes` is passed as nil (its bytes are skipped as
  /// they are read). Returns the number of `\n` bytes read, or nil when the file cannot be
  /// opened or a read fails (after visiting the lines before it).
  @discardableResult
  static func forEachLine(
    _ path: String, maximumLineBytes: Int,
    _ visit: (_ number: Int, _ line: UnsafeBufferPointer<UInt8>?) -> Void
  ) -> Int? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var block = [UInt8](repeating: 0, count: 1 << 20)
    var line: [UInt8] = []
    var tooLong = false
    var number = 0
    func end() {
      number += 1
      if tooLong {
        visit(number, nil)
      } else {
        line.withUnsafeBufferPointer { visit(number, $0) }
      }
      line.removeAll(keepingCapacity: true)
      tooLong = false
    }
    while true {
      let count = block.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
      if count == 0 {
        guard ferror(file) == 0 else { return nil }
        break
      }
      block.withUnsafeBufferPointer { bytes in
        guard let base = bytes.baseAddress else { return }
        var start = 0
        while start < count {
          let newline = memchr(base + start, 0x0A, count - start).map {
            $0.assumingMemoryBound(to: UInt8.self) - base
          }
          let stop = newline ?? count
          if !tooLong {
            if line.count + (stop - start) > maximumLineBytes {
              tooLong = true
              line.removeAll(keepingCapacity: false)
            } else {
              line.append(contentsOf: bytes[start..<stop])
            }
          }
          guard let newline else { break }
          end()
          start = newline + 1
        }
      }
    }
    let newlines = number
    // A last line without its `\n`.
    if !line.isEmpty || tooLong { end() }
    return newlines
  }
}

/// The top-level `nodes` array of a trace line, found without parsing the rest (a B1 line is
/// 380 KB, nearly all nodes): the report keeps a few nodes of a few lines, and parsing them
/// all took most of its time and memory.
enum TraceLineNodes {
  /// The line with the value of its top-level `"nodes"` key replaced by `[]`, and the byte
  /// ranges (in `line`) of that array's elements; nil when the line has no such key or is not
  /// well-formed enough to find it (the caller then parses the line whole).
  static func split(_ line: UnsafeBufferPointer<UInt8>) -> (rest: [UInt8], elements: [Range<Int>])?
  {
    let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
    /// The index after the string starting at `i` (a quote), or nil if it does not end.
    func stringEnd(_ i: Int) -> Int? {
      var j = i + 1
      while j < line.count {
        if line[j] == backslash {
          j += 2
        } else if line[j] == quote {
          return j + 1
        } else {
          j += 1
        }
      }
      return nil
    }
    /// The index after the value starting at `i`, or nil.
    func valueEnd(_ i: Int) -> Int? {
      guard i < line.count else { return nil }
      var depth = 0
      var j = i
      while j < line.count {
        switch line[j] {
        case quote:
          guard let k = stringEnd(j) else { return nil }
          j = k
          if depth == 0 { return j }
          continue
        case UInt8(ascii: "["), UInt8(ascii: "{"):
          depth += 1
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
          // At depth 0 it closes the enclosing container: a scalar ends here.
          if depth == 0 { return j }
          depth -= 1
          if depth == 0 { return j + 1 }
        case UInt8(ascii: ","):
          if depth == 0 { return j }
        default:
          break
        }
        j += 1
      }
      return depth == 0 ? j : nil
    }
    func skipSpace(_ i: Int) -> Int {
      var j = i
      while j < line.count, [0x20, 0x09, 0x0D, 0x0A].contains(line[j]) { j += 1 }
      return j
    }
    var i = skipSpace(0)
    guard i < line.count, line[i] == UInt8(ascii: "{") else { return nil }
    i += 1
    let key = Array("\"nodes\"".utf8)
    while true {
      i = skipSpace(i)
      guard i < line.count, line[i] == quote, let keyEnd = stringEnd(i) else { return nil }
      let isNodes = keyEnd - i == key.count && line[i..<keyEnd].elementsEqual(key)
      i = skipSpace(keyEnd)
      guard i < line.count, line[i] == UInt8(ascii: ":") else { return nil }
      i = skipSpace(i + 1)
      guard let end = valueEnd(i) else { return nil }
      if isNodes {
        guard line[i] == UInt8(ascii: "["), line[end - 1] == UInt8(ascii: "]") else { return nil }
        var elements: [Range<Int>] = []
        var j = skipSpace(i + 1)
        while j < end - 1 {
          guard let elementEnd = valueEnd(j), elementEnd <= end - 1 else { return nil }
          elements.append(j..<elementEnd)
          j = skipSpace(elementEnd)
          if j < end - 1 {
            guard line[j] == UInt8(ascii: ",") else { return nil }
            j = skipSpace(j + 1)
          }
        }
        return (Array(line[..<i]) + Array("[]".utf8) + Array(line[end...]), elements)
      }
      i = skipSpace(end)
      guard i < line.count, line[i] == UInt8(ascii: ",") else { return nil }
      i += 1
    }
  }
}
