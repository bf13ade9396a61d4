import ARSupport
import Foundation
import Testing

/// No raw control byte of an input reaches the terminal (issue 27, item 9): participant ids,
/// `--participant`, actions and paths are quoted through `InputText.quoted`, and what `arsim`
/// prints on standard error is escaped once more on its way out.
@Suite("control bytes in messages")
struct ControlBytesTests {
  static let track = "0 0 0 0 0 0 0 1\n1 0.1 0 0 0 0 0 1\n"

  /// A collaborative scene of participants `ids` (JSON string literals, escapes allowed) and
  /// `B` on `track.txt`, with `actions` (a JSON array).
  static func scene(ids: [String], actions: String = "[]") -> String {
    let participants = (ids + ["B"]).map {
      """
      {"id": "\($0)", "track": {"path": "track.txt", "format": "tum"},
       "intrinsics": {"fx": 500, "fy": 500, "cx": 320, "cy": 240, "width": 640, "height": 480},
       "anchor": {"position": [0, 0, -1]}}
      """
    }
    return """
      {"name": "c", "output": {"width": 16, "height": 16, "fps": 10}, "duration": 0.2,
       "background": {"color": [0, 0, 0]},
       "collaboration": {"seed": 1, "network": {"latency": 0.05},
        "participants": [\(participants.joined(separator: ","))], "actions": \(actions)}}
      """
  }

  /// Whether `text` holds a C0 control character other than a line break, or DEL.
  static func holdsRawControl(_ text: String) -> Bool {
    text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F }
  }

  @Test("--participant with an escape sequence: quoted with \\u{1B}, no raw ESC")
  func participantOption() throws {
    let folder = try CatalogFolder()
    defer { folder.remove() }
    try folder.write("track.txt", Self.track)
    try folder.write("c.json", Self.scene(ids: ["A"]))
    let outcome = runArsim([
      "render", folder.path + "/c.json", "--participant", "A\u{1B}[31m", "--out",
      folder.path + "/o",
    ])
    #expect(outcome.code == 64, "\(outcome.standardError)")
    #expect(outcome.standardError.contains("'A\\u{1B}[31m'"), "\(outcome.standardError)")
    #expect(!Self.holdsRawControl(outcome.standardError), "\(outcome.standardError)")
  }

  @Test(
    "a participant id holding NUL, a newline or ESC is quoted escaped",
    arguments: [
      ("A\\u0000B", "'A\\0B'"), ("A\\nB", "'A\\nB'"), ("A\\u001b[2J", "'A\\u{1B}[2J'"),
    ])
  func participantIdentifier(id: String, quoted: String) throws {
    let folder = try CatalogFolder()
    defer { folder.remove() }
    try folder.write("track.txt", Self.track)
    try folder.write("c.json", Self.scene(ids: [id]))
    let outcome = runArsim(["render", folder.path + "/c.json", "--out", folder.path + "/o"])
    #expect(outcome.code == 65, "\(outcome.standardError)")
    #expect(outcome.standardError.contains(quoted), "\(outcome.standardError)")
    #expect(!Self.holdsRawControl(outcome.standardError), "\(outcome.standardError)")
    #expect(outcome.standardError.split(separator: "\n").count == 1, "\(outcome.standardError)")
  }

  @Test("an action naming an unknown participant quotes it escaped")
  func unknownParticipant() throws {
    let folder = try CatalogFolder()
    defer { folder.remove() }
    try folder.write("track.txt", Self.track)
    let action = #"[{"t": 0.1, "participant": "Z\u001b]0;owned\u0007", "select": "tree"}]"#
    try folder.write("c.json", Self.scene(ids: ["A"], actions: action))
    let outcome = runArsim(["render", folder.path + "/c.json", "--out", folder.path + "/o"])
    #expect(outcome.code == 65, "\(outcome.standardError)")
    #expect(
      outcome.standardError.contains("no participant 'Z\\u{1B}]0;owned\\u{7}'"),
      "\(outcome.standardError)")
    #expect(!Self.holdsRawControl(outcome.standardError), "\(outcome.standardError)")
  }

  @Test("a 10 000-character participant id is cut at 40 with the …(N characters) marker")
  func longIdentifier() throws {
    let folder = try CatalogFolder()
    defer { folder.remove() }
    try folder.write("track.txt", Self.track)
    try folder.write("c.json", Self.scene(ids: [String(repeating: "x", count: 10_000)]))
    let outcome = runArsim(["render", folder.path + "/c.json", "--out", folder.path + "/o"])
    #expect(outcome.code == 65, "\(outcome.standardError)")
    #expect(
      outcome.standardError.contains(
        "'" + String(repeating: "x", count: 40) + "'…(10000 characters)"),
      "\(outcome.standardError)")
    #expect(!outcome.standardError.contains(String(repeating: "x", count: 41)))
  }

  @Test("a path with an escape sequence is escaped where a message names the file")
  func pathInLocation() throws {
    let folder = try CatalogFolder()
    defer { folder.remove() }
    let outcome = runArsim(["track", "info", folder.path + "/\u{1B}[2Jgone.txt"])
    #expect(outcome.code == 66, "\(outcome.standardError)")
    #expect(outcome.standardError.contains("/\\u{1B}[2Jgone.txt"), "\(outcome.standardError)")
    #expect(!Self.holdsRawControl(outcome.standardError), "\(outcome.standardError)")
  }

  @Test("InputText.escaped: whole, unquoted; keepingNewlines keeps line breaks only")
  func escaped() {
    #expect(InputText.escaped("a\u{1B}b\nc\r") == "a\\u{1B}b\\nc\\r")
    #expect(InputText.escaped("a\u{1B}b\nc\r", keepingNewlines: true) == "a\\u{1B}b\nc\\r")
    #expect(InputText.escaped("a\r\nb", keepingNewlines: true) == "a\\r\\nb")
    #expect(InputText.quotedPath(String(repeating: "p", count: 300)).count == 302)
  }
}
