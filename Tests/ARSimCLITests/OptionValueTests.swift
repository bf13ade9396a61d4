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
