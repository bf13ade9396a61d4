import ARSimCLI
import ARTestSupport
import Foundation
import Testing

/// A collaborative run's warnings reach the console and the top-level run.json, as a
/// single-view run's do (RunWarningsTests): the fixture's participant C reads a hostile
/// message log whose bad lines are warnings.
@Suite("Collaborative run warnings")
struct CollaborationWarningsTests {
  @Test("counted over all views, the first quoted with its text; per view too")
  func counted() throws {
    let temporary = TemporaryFolder("collab-warnings")
    defer { temporary.remove() }
    let directory = temporary.path
    let captured = CapturedOutput()
    let code = ARSimCLI.run(
      arguments: [
        "render", CollaborationReplayTests.scenePath, "--out", directory, "--threads", "1",
      ],
      output: captured.output)
    #expect(code == 0, "\(captured.standardError)")
    func object(_ path: String) throws -> [String: Any] {
      let data = try Data(contentsOf: URL(fileURLWithPath: path))
      return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
    // Independently: the warning events in the views' events.jsonl files.
    var total = 0
    for view in ["A", "B", "C"] {
      let warnings = try CollaborationReplayTests.lines(directory + "/\(view)/events.jsonl")
        .filter { $0["event"] as? String == "warning" }
      total += warnings.count
      let run = try object(directory + "/\(view)/run.json")
      #expect(run["warningCount"] as? Int == warnings.count, "\(view)")
      if view == "C" {
        // hostile-log.jsonl line 1 is not JSON: the reader's warning, at frame 0.
        let first = run["firstWarning"] as? String ?? ""
        #expect(first.hasPrefix("frame 0: "), "\(first)")
        #expect(first.contains("hostile-log.jsonl:1:"), "\(first)")
      }
    }
    #expect(total >= 8)  // C's lines 1–8 at least
    let top = try object(directory + "/run.json")
    #expect(top["warningEvents"] as? Int == total)
    #expect(top["warningCount"] as? Int == total)
    let first = top["firstWarning"] as? String ?? ""
    let firstView = try ["A", "B", "C"].first { view in
      try CollaborationReplayTests.lines(directory + "/\(view)/events.jsonl").contains {
        $0["event"] as? String == "warning"
      }
    }
    let viewFirst = try object(directory + "/\(firstView ?? "C")/run.json")["firstWarning"]
    #expect(first == "view \(firstView ?? "C"): \(viewFirst as? String ?? "")", "\(first)")
    #expect(
      captured.standardError.contains(
        "3 views, 183 frames → \(directory) "), "\(captured.standardError)")
    #expect(
      captured.standardError.contains(
        "; \(total) warnings (\(total) in events.jsonl), the first: view \(firstView ?? "C"): frame "
      ), "\(captured.standardError)")
  }

  @Test("one participant alone: \"1 view\"")
  func oneView() throws {
    let temporary = TemporaryFolder("collab-one")
    defer { temporary.remove() }
    let directory = temporary.path
    let captured = CapturedOutput()
    let code = ARSimCLI.run(
      arguments: [
        "render", CollaborationReplayTests.scenePath, "--out", directory, "--participant", "A",
        "--frames", "0..1",
      ],
      output: captured.output)
    #expect(code == 0, "\(captured.standardError)")
    #expect(
      captured.standardError.contains("arsim render: 1 view, 2 frames → "),
      "\(captured.standardError)")
  }
}
