import ARTestSupport
import Testing

@testable import ARSimCLI

/// An option that takes a value never swallows the next option as that value.
@Suite("Option values")
struct OptionValueTests {
  @Test(
    "a value starting with -- is a missing value, in every command",
    arguments: [
      (["render", "ok.json", "--out", "--frames", "0..3"], "--out"),
      (["stream", "s.json", "--port", "--tx-token", "EXT"], "--port"),
      (["receive", "--out", "--port", "0"], "--out"),
      (["compare", "a.png", "b.png", "--diff", "--threshold", "1"], "--diff"),
    ])
  func swallowedOption(arguments: [String], option: String) {
    let (code, output) = runCommand(arguments)
    #expect(code == 64)
    #expect(output.standardError.contains("\(option) needs a value"), "\(output.standardError)")
  }

  @Test("an inline value may start with -- (it is spelled out)")
  func inlineValue() throws {
    let args = try Arguments(["--out=--odd"], valueOptions: ["--out"])
    #expect(args.value("--out") == "--odd")
    // A negative number is a value, not an option.
    let offset = try Arguments(["--offset", "-1"], valueOptions: ["--offset"])
    #expect(offset.value("--offset") == "-1")
  }

  @Test(
    "a one-letter option (-o) is an unknown option, not a positional; -1 and ./-o are not",
    arguments: [
      ["render", "scene.json", "-o", "out"], ["track", "info", "-v", "t.txt"],
      ["compare", "a.png", "b.png", "-q"],
    ])
  func singleDashOption(arguments: [String]) throws {
    let (code, output) = runCommand(arguments)
    #expect(code == 64, "\(output.standardError)")
    let option = try #require(arguments.first { $0.hasPrefix("-") })
    #expect(
      output.standardError.contains("unknown option '\(option)' (options are spelt --name"),
      "\(output.standardError)")
    // Spelled as a path, or after --, it is a positional again.
    let path = try Arguments(["./-o", "--", "-p"], valueOptions: [])
    #expect(path.positionals == ["./-o", "-p"])
    #expect(try Arguments(["-1"], valueOptions: []).positionals == ["-1"])
  }

  @Test("--frames takes A or A..B, exactly; other dot counts are usage errors")
  func frameRanges() throws {
    #expect(try RenderCommand.parseRange("7") == 7...7)
    #expect(try RenderCommand.parseRange("0..3") == 0...3)
    #expect(try RenderCommand.parseRange("4..4") == 4...4)
    for text in ["0...3", "0....3", "0.3", "0..3..5", "..5", "5..", "10..5", "-1..3", "a..b", ""] {
      #expect(throws: UsageError.self, "\(text)") { try RenderCommand.parseRange(text) }
    }
  }
}

/// The per-view video names of `render --video` and `arsim video` for a collaborative folder.
@Suite("view video names")
struct ViewVideoNameTests {
  @Test(
    "OUT.mp4 → OUT-<view>.mp4, the extension's case kept; another extension stays in the stem",
    arguments: [
      ("c.mp4", "c-A.mp4"), ("c.MP4", "c-A.MP4"), ("c.Mp4", "c-A.Mp4"), ("c.mov", "c.mov-A.mp4"),
      ("c", "c-A.mp4"), ("dir.mp4/c", "dir.mp4/c-A.mp4"), (".mp4", "-A.mp4"),
    ])
  func names(output: String, expected: String) {
    #expect(VideoCommand.viewVideoPath(output, "A") == expected)
  }
}
