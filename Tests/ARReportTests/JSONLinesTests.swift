import ARTestSupport
import Foundation
import Testing

@testable import ARReport

/// The report's streaming JSON Lines reader and its trace-node filter, against
/// JSONSerialization of whole lines.
@Suite struct JSONLinesTests {
  let folder = TemporaryFolder("json-lines")

  /// The lines `JSONLines.forEachLine` passes: number and text, or nil for a line too long.
  func lines(_ text: [UInt8], maximum: Int) throws -> [(Int, String?)] {
    let path = folder.write(text, to: "f.jsonl")
    var seen: [(Int, String?)] = []
    let read = JSONLines.forEachLine(path, maximumLineBytes: maximum) { number, line in
      seen.append((number, line.map { String(decoding: $0, as: UTF8.self) }))
    }
    #expect(read != nil)
    return seen
  }

  @Test("lines with and without a last newline, empty lines, and one over the limit")
  func forEachLine() throws {
    defer { folder.remove() }
    var seen = try lines(Array("a\n\nbcd\nef".utf8), maximum: 2)
    #expect(seen.map(\.0) == [1, 2, 3, 4])
    #expect(seen.map(\.1) == ["a", "", nil, "ef"])
    seen = try lines(Array("a\n".utf8), maximum: 10)
    #expect(seen.map(\.1) == ["a"])
    #expect(try lines([], maximum: 10).isEmpty)
    // A line across the 1 MiB read blocks, and one over the limit across them.
    let long = String(repeating: "x", count: 1_500_000)
    seen = try lines(Array("\(long)\nz\n\(long)x\n".utf8), maximum: 1_500_000)
    #expect(seen.map(\.1) == [long, "z", nil])
  }

  @Test("forEachLine returns the newlines read, nil for a file it cannot open")
  func newlineCount() throws {
    defer { folder.remove() }
    for (text, newlines) in [("a\nb\n", 2), ("a\nb", 1), ("a\n\n", 2), ("", 0), ("\n\n", 2)] {
      let path = folder.write(Array(text.utf8), to: "s.jsonl")
      #expect(
        JSONLines.forEachLine(path, maximumLineBytes: 10) { _, _ in } == newlines,
        "\(text.debugDescription)")
    }
    #expect(JSONLines.forEachLine(folder.file("missing"), maximumLineBytes: 10) { _, _ in } == nil)
  }

  func parse(_ bytes: some Collection<UInt8>) -> Any? {
    try? JSONSerialization.jsonObject(with: Data(bytes))
  }

  @Test("split: the top-level nodes array's elements, the rest with nodes: []")
  func split() throws {
    let line = #"""
      {"frame": 3, "t": 0.1, "label": "\"nodes\": [1]", "app": {"nodes": [{"x": 1}]},
       "nodes" : [ {"name": "a]\"}", "kind": "sphere", "rgba": [1, 2]} , {"name": "floor plane"},
        7, "s", [1, [2]], null ], "after": {"k": [true, false]}, "z": -1.5e3}
      """#
    let bytes = Array(line.utf8)
    let result = bytes.withUnsafeBufferPointer { TraceLineNodes.split($0) }
    let whole = try #require(parse(bytes) as? [String: Any])
    let (rest, elements) = try #require(result)
    var expected = whole
    expected["nodes"] = [Any]()
    #expect(
      NSDictionary(dictionary: try #require(parse(rest) as? [String: Any]))
        .isEqual(to: expected))
    let nodes = try #require(whole["nodes"] as? [Any])
    #expect(elements.count == nodes.count)
    for (range, node) in zip(elements, nodes) {
      let element = Array(bytes[range])
      let parsed = try #require(
        try? JSONSerialization.jsonObject(with: Data(element), options: .fragmentsAllowed))
      #expect(
        NSArray(array: [parsed]).isEqual(to: [node]), "\(String(decoding: element, as: UTF8.self))")
    }
  }

  @Test("split: no top-level nodes, or a line it cannot follow, gives nil")
  func splitNil() {
    for line in [
      #"{"frame": 1, "app": {"nodes": []}}"#, #"{"nodes": 3}"#, #"[1, 2]"#, #"{"nodes": [1, 2"#,
      #"{"a": "unterminated, "nodes": []}"#, "",
    ] {
      let bytes = Array(line.utf8)
      #expect(bytes.withUnsafeBufferPointer { TraceLineNodes.split($0) } == nil, "\(line)")
    }
  }

  @Test("split never fails on cut or mutated lines: nil or a line that parses as the original")
  func splitMutated() throws {
    let line = Array(
      #"{"frame": 1, "nodes": [{"name": "a\"]", "v": [1, {"w": "}"}]}, {"kind": "plane"}], "z": 2}"#
        .utf8)
    // SplitMix64: the same cases on every run.
    var state: UInt64 = 0x5DEE_CE66
    func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    let alphabet = Array(#"{}[]":,\ "nodes"x1"#.utf8)
    var splits = 0
    for case_ in 0..<20_000 {
      var bytes = Array(line.prefix(Int(next() % UInt64(line.count + 1))))
      if case_ % 2 == 0, !bytes.isEmpty {
        for _ in 0..<(1 + Int(next() % 3)) {
          bytes[Int(next() % UInt64(bytes.count))] = alphabet[Int(next() % UInt64(alphabet.count))]
        }
      }
      guard let (rest, elements) = bytes.withUnsafeBufferPointer({ TraceLineNodes.split($0) })
      else { continue }
      splits += 1
      #expect(elements.allSatisfy { $0.lowerBound >= 0 && $0.upperBound <= bytes.count })
      #expect(rest.count <= bytes.count + 2)
    }
    // The whole line and many of its mutations split.
    #expect(splits > 100, "\(splits)")
  }

  @Test("mentionsPlane: 'plane' in any case, nothing that only looks like it")
  func mentionsPlane() {
    for (text, expected) in [
      ("plane", true), ("a PlAnE b", true), ("xplan", false), ("pla ne", false),
      ("\u{70}\u{4C}ane", true), ("p,ane", false), ("P\u{0C}ANE", false), ("", false),
    ] {
      let bytes = Array(text.utf8)
      #expect(bytes.withUnsafeBufferPointer { RunFolder.mentionsPlane($0) } == expected, "\(text)")
    }
  }

  @Test("RunFolder keeps only plane nodes, on every line of a short trace")
  func planeNodesOnly() throws {
    defer { folder.remove() }
    let node = { (name: String, kind: String) in
      #"{"name": "\#(name)", "kind": "\#(kind)", "worldTransform": [1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}"#
    }
    var text = ""
    for frame in 0..<3 {
      let nodes = [
        node("stroke-\(frame)", "sphere"), node("Desk Plane", "box"), node("anchor", "plane"),
      ]
      text +=
        #"{"frame": \#(frame), "t": 0, "nodes": [\#(nodes.joined(separator: ","))], "#
        + #""app": {"nodes": [{"name": "kept as it is"}]}}"# + "\n"
    }
    _ = folder.write(text, to: "trace.jsonl")
    let run = try RunFolder.load(folder.path)
    #expect(run.trace.count == 3)
    for line in run.trace {
      let names = (line["nodes"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
      #expect(names == ["Desk Plane", "anchor"])
      let app = line["app"] as? [String: Any]
      #expect((app?["nodes"] as? [[String: Any]])?.first?["name"] as? String == "kept as it is")
    }
  }
}
