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
}
