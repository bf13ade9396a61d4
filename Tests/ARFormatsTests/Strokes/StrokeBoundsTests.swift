import ARFormats
import ARSupport
import Testing

/// Stroke-log times far outside anything a helper sends are refused, as camera positions
/// beyond 10⁶ m are (corrected-mode points: ARRemoteAssistTests' StrokeBoundsTests).
@Suite struct StrokeBoundsTests {
  @Test(
    "a stroke-log time beyond ±10⁶ s is an error naming file, line and field",
    arguments: ["1e300", "1000000.5", "-2e6"])
  func timeBeyondLimit(t: String) throws {
    let text = "{\"t\": 0, \"data\": \"touch-start\"}\n{\"t\": \(t), \"data\": \"touch-end\"}\n"
    let error = #expect(throws: InputError.self) {
      try StrokeLog.parse(Array(text.utf8), file: "log.jsonl")
    }
    #expect(error?.location == InputLocation(file: "log.jsonl", line: 2, field: "t"))
    #expect(
      error?.reason.hasSuffix("s is beyond ±1000000.0 s") == true, "\(String(describing: error))")
  }

  @Test("times at the limit are accepted")
  func timeAtLimit() throws {
    let text = "{\"t\": -1e6, \"data\": \"a\"}\n{\"t\": 1e6, \"data\": \"b\"}\n"
    let log = try StrokeLog.parse(Array(text.utf8), file: "log.jsonl")
    #expect(log.messages.map(\.t) == [-1_000_000, 1_000_000])
  }
}
