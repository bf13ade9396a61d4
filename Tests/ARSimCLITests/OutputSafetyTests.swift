import ARRender
import ARTestSupport
import Foundation
import Testing

@testable import ARSimCLI

#if canImport(Glibc)
  import Glibc
#endif

/// Commands that write one named file must not replace special files, write through symbolic
/// links, nor overwrite their own input.
@Suite("CLI outputs never replace special files, links or inputs")
struct OutputSafetyTests {
  let root: String
  /// Two TUM poses one second apart.
  static let track = "0 0 0 0 0 0 0 1\n1 1 0 0 0 0 0 1\n"
  static let drawing = "{\"word\": \"cat\", \"drawing\": [[[0, 10, 20], [0, 10, 5]]]}\n"

  init() throws {
    root = TemporaryFolder("outsafe").path
    try FileIO.writeAtomically(Array(Self.track.utf8), to: root + "/in.txt")
    try FileIO.writeAtomically(Array(Self.drawing.utf8), to: root + "/q.ndjson")
    try Image(width: 2, height: 2).writePNG(to: root + "/a.png")
    var b = Image(width: 2, height: 2)
    b[0, 0] = (255, 255, 255, 255)
    try b.writePNG(to: root + "/b.png")
  }

  func type(_ path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode & S_IFMT
  }

  /// Each command with its output path in place of `$OUT`.
  static let commands: [[String]] = [
    ["track", "convert", "$R/in.txt", "--format", "tum", "--to", "tum", "$OUT"],
    ["strokes", "from-quickdraw", "$R/q.ndjson", "--drawing", "0", "--out", "$OUT"],
    ["compare", "$R/a.png", "$R/b.png", "--exact", "--diff", "$OUT"],
  ]

  func expand(_ command: [String], out: String) -> [String] {
    command.map {
      $0.replacingOccurrences(of: "$OUT", with: out).replacingOccurrences(of: "$R", with: root)
    }
  }

  @Test("an output that is a FIFO is refused (73) and stays a FIFO", arguments: commands)
  func fifo(command: [String]) throws {
    let fifo = root + "/pipe"
    #expect(mkfifo(fifo, 0o644) == 0)
    let (code, output) = runCommand(expand(command, out: fifo))
    #expect(code == 73, "\(output.standardError)")
    #expect(output.standardError.contains(fifo + ": is not a regular file"))
    #expect(type(fifo) == S_IFIFO)
  }

  @Test(
    "an output that is a symbolic link is refused (73); the link and its target stay",
    arguments: commands)
  func symbolicLink(command: [String]) throws {
    try FileIO.writeAtomically(Array("victim".utf8), to: root + "/target")
    try FileManager.default.createSymbolicLink(
      atPath: root + "/link", withDestinationPath: "target")
    let (code, output) = runCommand(expand(command, out: root + "/link"))
    #expect(code == 73, "\(output.standardError)")
    #expect(output.standardError.contains(root + "/link: is a symbolic link"))
    #expect(type(root + "/link") == S_IFLNK)
    #expect(try FileIO.read(root + "/target") == Array("victim".utf8))
  }

  @Test("track convert refuses to write over its input, however it is spelled")
  func trackOverInput() throws {
    try FileManager.default.createSymbolicLink(
      atPath: root + "/alias.txt", withDestinationPath: "in.txt")
    for out in [root + "/in.txt", root + "/./in.txt", root + "/alias.txt"] {
      let (code, output) = runCommand([
        "track", "convert", root + "/in.txt", "--format", "tum", "--to", "tum", out,
      ])
      #expect(code == 64, "\(out): \(output.standardError)")
      #expect(output.standardError.contains("would overwrite the input"))
      #expect(output.standardError.contains(out) && output.standardError.contains(root + "/in.txt"))
      #expect(try FileIO.read(root + "/in.txt") == Array(Self.track.utf8))
    }
  }

  @Test("strokes from-quickdraw refuses an --out that is its input")
  func strokesOverInput() throws {
    let (code, output) = runCommand([
      "strokes", "from-quickdraw", root + "/q.ndjson", "--drawing", "0", "--out",
      root + "/../" + (root as NSString).lastPathComponent + "/q.ndjson",
    ])
    #expect(code == 64, "\(output.standardError)")
    #expect(output.standardError.contains("would overwrite the input '\(root)/q.ndjson'"))
    #expect(try FileIO.read(root + "/q.ndjson") == Array(Self.drawing.utf8))
  }
}
