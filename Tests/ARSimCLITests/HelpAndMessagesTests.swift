import ARLive
import ARTestSupport
import Foundation
import Testing

@testable import ARSimCLI

/// Help and messages a newcomer trips over (issue 27, item 19): help and README agree with the
/// options, the README's sample is the real output, options are not called scene fields, a
/// Ctrl-C says so once, and a typo gets the nearest name instead of the whole usage.
@Suite("help and messages")
struct HelpAndMessagesTests {
  static let repository = URL(fileURLWithPath: Fixtures.repository)

  static func readme() throws -> String {
    try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
  }

  @Test("arsim help --help is the overview (0); bench live --help shows bench live only")
  func helpOfHelp() {
    for arguments in [["help", "--help"], ["help", "-h"], ["--help", "--help"]] {
      let (code, output) = runCommand(arguments)
      #expect(code == 0, "\(arguments): \(output.standardError)")
      #expect(output.standardOutput.hasPrefix("USAGE: arsim <command>"), "\(arguments)")
    }
    let (code, output) = runCommand(["bench", "live", "--help"])
    #expect(code == 0)
    #expect(output.standardOutput.contains("arsim bench live [--size WxH]"))
    #expect(!output.standardOutput.contains("--participants"), "\(output.standardOutput)")
    // The other subcommand-less forms keep the whole block.
    let (_, bench) = runCommand(["bench", "B1", "--help"])
    #expect(bench.standardOutput.contains("--participants"))
    #expect(bench.standardOutput.contains("arsim bench live"))
  }

  @Test(
    "every command's --help ends with the exit codes, compare's too",
    arguments: ["render", "compare", "video", "report", "bench", "stream", "receive", "merge"])
  func exitCodesInHelp(command: String) {
    let (code, output) = runCommand([command, "--help"])
    #expect(code == 0)
    #expect(
      output.standardOutput.contains("Exit codes: 0 ok, 1 images differ, 64 usage"),
      "\(command): \(output.standardOutput)")
    #expect(output.standardOutput.contains("76 live protocol error, 130 interrupted."))
  }

  @Test("the bench's --track error never names --format, which bench does not take")
  func benchTrackHint() throws {
    let folder = TemporaryFolder("bench-track")
    defer { folder.remove() }
    let track = folder.write("0 0 0 0 0 0 0 1\n", to: "tum.txt")
    let (code, output) = runCommand([
      "bench", "B3", "--frames", "1", "--track", track, "--out", folder.file("out"),
    ])
    #expect(code == 65, "\(output.standardError)")
    #expect(!output.standardError.contains("--format"), "\(output.standardError)")
  }

  @Test("arsim help bench shows bench live --track; README's bench rows list --track and --out")
  func benchOptions() throws {
    let (code, output) = runCommand(["help", "bench"])
    #expect(code == 0)
    let live =
      output.standardOutput.components(separatedBy: "arsim bench live").dropFirst()
      .first?.components(separatedBy: "Stream B1").first ?? ""
    #expect(live.contains("[--track FILE]"), "\(output.standardOutput)")
    #expect(live.contains("[--out DIR]"))
    let rows = try Self.readme().split(separator: "\n").filter { $0.hasPrefix("| `bench") }
    #expect(rows.count == 2, "\(rows)")
    for row in rows {
      let synopsis = row.split(separator: "`").dropFirst().first ?? ""
      #expect(synopsis.contains("[--track FILE]") && synopsis.contains("[--out DIR]"), "\(row)")
    }
  }

  @Test("README's track info sample is what track info prints")
  func trackInfoSample() throws {
    let readme = try Self.readme()
    let command = "$ arsim track info Scenes/Inputs/tum_fr1_xyz_groundtruth.txt\n"
    let after = try #require(readme.components(separatedBy: command).dropFirst().first)
    let sample = after.split(separator: "\n").prefix { !$0.hasPrefix("$") && $0 != "```" }
    let (code, output) = runCommand([
      "track", "info",
      Self.repository.appendingPathComponent(
        "Scenes/Inputs/tum_fr1_xyz_groundtruth.txt"
      ).path,
    ])
    #expect(code == 0)
    #expect(
      sample.map(String.init) == output.standardOutput.split(separator: "\n").map(String.init))
  }

  @Test("--frames beyond the scene names the option, not a scene field")
  func framesOption() throws {
    let root = try VideoOverwriteTests.makeRoot()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let (code, output) = runCommand([
      "render", root + "/scene.json", "--frames", "400", "--out", root + "/o",
    ])
    #expect(code == 64)
    #expect(!output.standardError.contains("field"), "\(output.standardError)")
    #expect(
      output.standardError.contains(
        "scene.json: --frames 400 is outside the scene's frames 0..3"), "\(output.standardError)")
    let (_, participant) = runCommand([
      "render", root + "/collab.json", "--participant", "C", "--out", root + "/o",
    ])
    #expect(!participant.standardError.contains("field"), "\(participant.standardError)")
    #expect(
      participant.standardError.contains(
        "--participant 'C': no such participant (the scene has A, B)"),
      "\(participant.standardError)")
  }

  @Test("Ctrl-C on a live command says interrupted once, with where it stopped")
  func interruptedLine() throws {
    #expect(
      liveStopLine("stream", LiveError(.interrupted, "at frame 12"))
        == "arsim stream: interrupted (SIGINT or SIGTERM) at frame 12")
    #expect(
      liveStopLine("stream", LiveError(.timedOut, "send"))
        == "arsim stream: stopped: timed out: send")
    let stop = StopSignal()
    stop.request()
    let error = #expect(throws: LiveError.self) {
      try LivePacer(isPaced: true, stop: stop).wait(untilMicroseconds: 1_500_000)
    }
    #expect(error?.failure == .interrupted)
    #expect(
      error.map { liveStopLine("stream", $0) }
        == "arsim stream: interrupted (SIGINT or SIGTERM) before τ = 1.5 s")
  }

  @Test(
    "a typo gets the nearest name, not the whole usage",
    arguments: [
      (["rendr", "x.json"], "arsim: unknown command 'rendr' (did you mean render?)"),
      (["render", "x.json", "--frame", "3"], "unknown option '--frame' (did you mean --frames?)"),
      (["bench", "--thread", "2"], "unknown option '--thread' (did you mean --threads?)"),
      (["compare", "a", "b", "--exat"], "unknown option '--exat' (did you mean --exact?)"),
      (["help", "bnch"], "no command 'bnch' (did you mean bench?)"),
      (["track", "ifno", "x"], "(did you mean info?)"),
      (["strokes", "sned"], "(did you mean send?)"),
      (["render", "x.json", "--zzz"], "unknown option '--zzz' (--help lists the options)"),
    ])
  func nearestName(arguments: [String], message: String) {
    let (code, output) = runCommand(arguments)
    #expect(code == 64)
    #expect(output.standardError.contains(message), "\(output.standardError)")
    #expect(!output.standardError.contains("COMMANDS:"), "\(output.standardError)")
    #expect(output.standardError.split(separator: "\n").count <= 3, "\(output.standardError)")
  }

  @Test("nearestName: close names only")
  func nearestNameUnit() {
    #expect(ARSimCLI.nearestName(to: "--frame", among: ["--frames", "--out"]) == "--frames")
    #expect(ARSimCLI.nearestName(to: "--zzz", among: ["--frames", "--out"]) == nil)
    #expect(ARSimCLI.nearestName(to: "lvie", among: ["live"]) == "live")
    #expect(ARSimCLI.nearestName(to: "x", among: ["render"]) == nil)
  }
}
