import ARRender
import ARTestSupport
import Foundation
import Testing

@testable import ARSimCLI

/// Command-line details a newcomer found inconsistent between commands: option case, repeated
/// flags, exit codes, per-command help, echoed numbers and unbounded numbers.
@Suite("CLI consistency")
final class CLIConsistencyTests {
  private let temporary = TemporaryFolder("consistency")
  var root: String { temporary.path }

  // Each test gets its own instance: its folder goes when the test ends.
  deinit { temporary.remove() }

  /// `Tests/__Fixtures__/quickdraw/NAME`.
  static func quickDraw(_ name: String) -> String { Fixtures.path("quickdraw/" + name) }

  @Test("--instruction-set is case-insensitive like the scene names")
  func instructionSetCase() {
    // Parsing passes, so the run gets as far as the missing track (66), not a usage error.
    let (code, output) = runCommand([
      "bench", "b3", "--instruction-set", "AVX2", "--track", root + "/none.txt", "--out", root,
    ])
    #expect(code == 66, "\(output.standardError)")
    #expect(output.standardError.contains(root + "/none.txt"))
    let (wrong, wrongOutput) = runCommand(["bench", "b3", "--instruction-set", "AVX3"])
    #expect(wrong == 64)
    #expect(
      wrongOutput.standardError.contains(
        "--instruction-set 'AVX3': expected automatic, baseline, avx2 or avx512"))
  }

  @Test(
    "a repeated flag is an error like a repeated value option",
    arguments: [
      (["bench", "--sequential", "--sequential"], "--sequential given twice"),
      (["compare", "a.png", "b.png", "--exact", "--exact"], "--exact given twice"),
    ])
  func repeatedFlag(arguments: [String], message: String) {
    let (code, output) = runCommand(arguments)
    #expect(code == 64)
    #expect(output.standardError.contains(message), "\(output.standardError)")
  }

  @Test("a missing default bench track is missing input (66) with the hint")
  func missingDefaultTrack() {
    let path = root + "/Scenes/Inputs/arkit_datalogger_camera_pose.txt"
    let error = #expect(throws: InputError.self) { try BenchCommand.checkDefaultTrack(path) }
    #expect(error.map { ExitCode($0.kind) } == .missingInput)
    #expect(error?.location.file == path)
    #expect(error?.reason.contains("run arsim bench from the repository root") == true)
  }

  @Test(
    "COMMAND --help prints that command's lines of the overview",
    arguments: [
      (["render", "--help"], "render", "  arsim render SCENE.json [--out DIR]"),
      (["bench", "--help"], "bench", "  arsim bench [B1|B2|B3|B4|B5|B6|S1 ...] [--frames N]"),
      (["track", "info", "--help"], "track", "  arsim track info FILE [--format F]"),
      (["strokes", "-h"], "strokes", "  arsim strokes from-quickdraw FILE.ndjson --drawing N"),
      (["help", "render"], "render", "  arsim render SCENE.json [--out DIR]"),
      (["help", "compare"], "compare", "  arsim compare EXPECTED ACTUAL"),
    ])
  func commandHelp(arguments: [String], command: String, firstLine: String) {
    let (code, output) = runCommand(arguments)
    #expect(code == 0)
    let lines = output.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.first == "USAGE:")
    #expect(lines.dropFirst().first?.hasPrefix(firstLine) == true)
    #expect(output.standardOutput.contains("Exit codes: 0 ok"))
    // No other command's block.
    for other in ["render", "track", "strokes", "compare", "bench"] where other != command {
      #expect(!output.standardOutput.contains("arsim \(other) "), "\(other) in \(command)")
    }
  }

  @Test("help with a word that is no command is a usage error naming it")
  func helpUnknownTopic() {
    let (code, output) = runCommand(["help", "rendr"])
    #expect(code == 64)
    #expect(output.standardError.contains("no command 'rendr'"))
    #expect(output.standardOutput.isEmpty)
  }

  @Test("help help is the overview, help track info is track's help, other words are usage errors")
  func helpEdges() {
    let (code, output) = runCommand(["help", "help"])
    #expect(code == 0)
    #expect(output.standardOutput.hasPrefix("USAGE: arsim <command>"))
    let (twoCode, twoOutput) = runCommand(["help", "bench", "extra"])
    #expect(twoCode == 64)
    #expect(twoOutput.standardError.contains("'extra' is no subcommand of bench"))
    let (threeCode, threeOutput) = runCommand(["help", "bench", "live", "x"])
    #expect(threeCode == 64)
    #expect(threeOutput.standardError.contains("help takes one command, got 3 words"))
    let (subCode, subOutput) = runCommand(["help", "track", "info"])
    #expect(subCode == 0)
    #expect(subOutput.standardOutput.contains("  arsim track info FILE"))
    #expect(subOutput.standardOutput.contains("  arsim track convert FILE"))
  }

  @Test("track --help lists both subcommands, continuation lines kept aligned")
  func trackHelp() {
    let (_, output) = runCommand(["track", "--help"])
    #expect(
      output.standardOutput.hasPrefix(
        """
        USAGE:
          arsim track info FILE [--format F] [--times FILE] [--sensor FILE]
                           [--camera-axes opencv|arkit|androidSensor] [--world-up y|z|minusY]
                                        Summarise a camera track.
          arsim track convert FILE --to tum OUT [same options as info]
        """))
  }

  @Test(
    "number messages echo the text as typed",
    arguments: [
      (
        ["compare", "a.png", "b.png", "--threshold", "2"],
        "--threshold '2': expected a number from 0 to 1"
      ),
      (
        ["compare", "a.png", "b.png", "--max-diff-fraction", "1.50"],
        "--max-diff-fraction '1.50': expected a number from 0 to 1"
      ),
      (
        ["strokes", "from-quickdraw", "x.ndjson", "--drawing", "0", "--speed", "1e9"],
        "--speed '1e9': expected a factor from 0.001 to 1000"
      ),
    ])
  func echoedNumbers(arguments: [String], message: String) {
    let (code, output) = runCommand(arguments)
    #expect(code == 64)
    #expect(output.standardError.contains(message), "\(output.standardError)")
  }

  @Test(
    "from-quickdraw bounds its numbers, naming the option",
    arguments: [
      (["--start", "1e300"], "--start '1e300': expected seconds from 0 to 1000000"),
      (["--start", "-1"], "--start '-1': expected seconds from 0 to 1000000"),
      (["--scale", "1e6"], "--scale '1e6': expected points per canvas pixel, more than 0"),
      (["--scale", "0"], "--scale '0': expected points per canvas pixel, more than 0"),
      (["--view", "1e300x844"], "--view '1e300x844': expected WIDTHxHEIGHT in points, each 1"),
      // The circle's 3 drawings: the last message of drawing 0 comes after 10⁶ s.
      (["--start", "1000000"], "beyond the stroke-log limit of 1000000.0 s"),
    ])
  func quickDrawBounds(options: [String], message: String) {
    let (code, output) = runCommand(
      [
        "strokes", "from-quickdraw", Self.quickDraw("simplified_circle_0-2.ndjson"), "--drawing",
        "0",
      ]
        + options)
    #expect(code == 64)
    #expect(output.standardError.contains(message), "\(output.standardError)")
    #expect(output.standardOutput.isEmpty)
  }

  @Test("a --scale that puts points beyond ±10⁶ view points is refused")
  func scaleBeyondReceiverLimit() throws {
    // One stroke from x = 0 to 10⁶ canvas pixels: centred, the ends are ±5·10⁵ px; × 3 points
    // per pixel is ±1.5·10⁶ points. At × 2 they are exactly ±10⁶ and accepted.
    let path = root + "/wide.ndjson"
    try FileIO.writeAtomically(
      Array("{\"word\":\"line\",\"drawing\":[[[0,1000000],[0,0]]]}\n".utf8), to: path)
    let (code, output) = runCommand([
      "strokes", "from-quickdraw", path, "--drawing", "0", "--scale", "3",
    ])
    #expect(code == 64)
    #expect(
      output.standardError.contains(
        "--scale puts point (-1500000.0, 0.0) beyond ±1000000.0 points from the view centre"),
      "\(output.standardError)")
    let (ok, okOutput) = runCommand([
      "strokes", "from-quickdraw", path, "--drawing", "0", "--scale", "2",
    ])
    #expect(ok == 0, "\(okOutput.standardError)")
    #expect(okOutput.standardOutput.contains("[(-1000000.0, 0.0), (1000000.0, 0.0)]"))
  }
}
