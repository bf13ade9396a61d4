import ARRender
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Inputs a hostile user might give (issue 22): secrets and huge tokens are quoted only as
/// short excerpts, NUL characters are errors naming the field, FIFOs and folders are refused
/// the same way by every reader, JSON-track errors name line and field.
@Suite("hostile inputs")
struct HostileInputTests {
  static let track = "0 0 0 0 0 0 0 1\n1 1 0 0 0 0 0 1\n"

  /// A scene over `track.txt` with `extra` fields added.
  static func scene(name: String = "s", extra: String = "") -> String {
    """
    {"name": "\(name)", "track": {"path": "track.txt", "format": "tum"},
     "output": {"width": 8, "height": 6, "fps": 2}, "duration": 0.5\(extra)}
    """
  }

  // MARK: excerpts

  @Test("a secret or a 60 KB token in a track is quoted as a 40-character excerpt at most")
  func longToken() throws {
    let folder = try CatalogFolder()
    defer { folder.remove() }
    let token = String(repeating: "s3cret", count: 10_240)  // 61 440 characters
    try folder.write("t.txt", token + " 0 0 0 0 0 0 1\n")
    let outcome = runArsim(["track", "info", folder.path + "/t.txt", "--format", "tum"])
    #expect(outcome.code == 65)
    #expect(outcome.standardError.contains("'" + String(token.prefix(40)) + "'…(61440 characters)"))
    #expect(!outcome.standardError.contains(String(token.prefix(41))))
    #expect(outcome.standardError.utf8.count < 300, "\(outcome.standardError.utf8.count) bytes")
  }

  @Test("a 10 000-character scene name is cut; control characters are escaped")
  func longName() throws {
    let folder = try CatalogFolder()
    defer { folder.remove() }
    try folder.write("track.txt", Self.track)
    try folder.write("a.json", Self.scene(name: String(repeating: "n/", count: 5_000)))
    let a = runArsim(["render", folder.path + "/a.json"])
    #expect(a.code == 65)
    #expect(a.standardError.contains("…(10000 characters)"))
    #expect(a.standardError.utf8.count < 400, "\(a.standardError.utf8.count) bytes")
    try folder.write("b.json", Self.scene(name: "x\\u001b[2Jy\\n"))
    let b = runArsim(["render", folder.path + "/b.json"])
    #expect(b.code == 65)
    #expect(b.standardError.contains("'x\\u{1B}[2Jy\\n'"), "\(b.standardError)")
    #expect(!b.standardError.contains("\u{1B}"))
  }

  @Test("InputText.quoted: limit, marker, escapes")
  func quoted() {
    #expect(InputText.quoted("abc") == "'abc'")
    #expect(InputText.quoted("a\tb\r\u{0}\u{7F}") == "'a\\tb\\r\\0\\u{7F}'")
    #expect(
      InputText.quoted(String(repeating: "x", count: 41)) == "'" + String(repeating: "x", count: 40)
        + "'…(41 characters)")
    #expect(InputText.quoted("é€", limit: 1) == "'é'…(2 characters)")
  }

  // MARK: NUL characters

  @Test("a NUL inside a command-line path or number is a usage error naming the argument")
  func nulArguments() throws {
    let folder = try CatalogFolder()
    defer { folder.remove() }
    try folder.write("track.txt", Self.track)
    let path = runArsim(["track", "info", folder.path + "/track.txt\u{0}/../../etc/shadow"])
    #expect(path.code == 64)
    #expect(
      path.standardError.contains("argument 1 '" + folder.path.prefix(20)), "\(path.standardError)")
    #expect(path.standardError.contains("contains a NUL character"))
    let number = runArsim([
      "track", "info", folder.path + "/track.txt", "--format", "tum", "--world-up", "y\u{0}x",
    ])
    #expect(number.code == 64)
    #expect(number.standardError.contains("--world-up"), "\(number.standardError)")
    let threshold = runArsim(["compare", "a.png", "b.png", "--threshold", "0.1\u{0}junk"])
    #expect(threshold.code == 64)
    #expect(threshold.standardError.contains("--threshold"), "\(threshold.standardError)")
  }

  @Test("a NUL inside a scene's path is an error naming the field")
  func nulScenePath() throws {
    let folder = try CatalogFolder()
    defer { folder.remove() }
    try folder.write("track.txt", Self.track)
    try folder.write(
      "s.json",
      Self.scene().replacingOccurrences(of: "track.txt", with: "track.txt\\u0000/../../x"))
    let outcome = runArsim(["render", folder.path + "/s.json"])
    #expect(outcome.code == 65)
    #expect(outcome.standardError.contains("field 'track.path'"), "\(outcome.standardError)")
    #expect(outcome.standardError.contains("contains a NUL character"))
  }

  @Test("a number with an embedded NUL in a track is not a number")
  func nulNumber() throws {
    let folder = try CatalogFolder()
    defer { folder.remove() }
    try folder.write("t.txt", "0 0 0 0 0 0 0 1\n300.0\u{0}junk 1 0 0 0 0 0 1\n")
    let outcome = runArsim(["track", "info", folder.path + "/t.txt", "--format", "tum"])
    #expect(outcome.code == 65)
    #expect(outcome.standardError.contains("t.txt:2: field 'timestamp'"))
    #expect(outcome.standardError.contains("'300.0\\0junk' is not a number"))
  }

  // MARK: non-regular input files

  /// Every kind of input, with `$IN` where the path under test goes.
  static let inputKinds: [(String, [String: String], [String])] = [
    ("track", [:], ["track", "info", "$IN"]),
    ("scene", [:], ["render", "$IN"]),
    (
      "stroke log", ["s.json": scene(extra: #", "remoteAssist": {"strokes": "$IN"}"#)],
      ["render", "$D/s.json"]
    ),
    (
      "video",
      [
        "s.json": scene(
          extra: #", "displayers": {"taps": [], "videos": [{"path": "$IN"}]}"#)
      ], ["render", "$D/s.json"]
    ),
    ("Quick, Draw!", [:], ["strokes", "from-quickdraw", "$IN", "--drawing", "0"]),
    // Last: `compare` takes folders too, so only its FIFO case applies.
    ("PNG", [:], ["compare", "$IN", "$IN"]),
  ]

  func runKind(_ kind: Int, input: String) throws -> CatalogOutcome {
    let folder = try CatalogFolder()
    defer { folder.remove() }
    let (_, files, command) = Self.inputKinds[kind]
    try folder.write("track.txt", Self.track)
    let path = input == "FIFO" ? folder.path + "/pipe" : folder.path + "/sub"
    if input == "FIFO" {
      #expect(mkfifo(path, 0o644) == 0)
    } else {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }
    for (name, text) in files {
      try folder.write(name, text.replacingOccurrences(of: "$IN", with: path))
    }
    // If a reader blocks in open(2) on the FIFO (the defect), this opens the other end after
    // a while so the test fails instead of hanging.
    let done = LockedFlag()
    let rescue = Thread {
      for _ in 0..<200 where !done.value {
        usleep(50_000)
      }
      let fd = open(path, O_WRONLY | O_NONBLOCK)
      if fd >= 0 { close(fd) }
    }
    if input == "FIFO" { rescue.start() }
    let outcome = runArsim(
      command.map {
        $0.replacingOccurrences(of: "$IN", with: path).replacingOccurrences(
          of: "$D", with: folder.path)
      })
    done.value = true
    return outcome
  }

  @Test(
    "a FIFO or a folder given as any input file is refused the same way, exit 66, at once",
    arguments: 0..<6, ["FIFO", "folder"])
  func nonRegularInput(kind: Int, input: String) throws {
    guard !(kind == 5 && input == "folder") else { return }
    let outcome = try runKind(kind, input: input)
    let what = input == "FIFO" ? "a FIFO" : "a folder"
    #expect(outcome.code == 66, "\(Self.inputKinds[kind].0): \(outcome.standardError)")
    #expect(
      outcome.standardError.contains("is not a regular file but \(what); inputs must be regular"),
      "\(Self.inputKinds[kind].0): \(outcome.standardError)")
  }

  // MARK: JSON tracks

  @Test("JSON-track errors name the line and field; a top-level scalar too")
  func jsonTrackLines() throws {
    let folder = try CatalogFolder()
    defer { folder.remove() }
    try folder.write(
      "a.json",
      """
      {"format": "arsim-track", "version": 1,
       "poses": [
        {"t": 0, "worldFromCamera": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]},
        {"t": "x", "worldFromCamera": [1]}]}
      """)
    let a = runArsim(["track", "info", folder.path + "/a.json"])
    #expect(a.code == 65)
    #expect(a.standardError.contains("a.json:4: field 'poses[1].t'"), "\(a.standardError)")
    try folder.write("b.json", "5\n")
    let b = runArsim(["track", "info", folder.path + "/b.json"])
    #expect(b.code == 65)
    #expect(b.standardError.contains("b.json:1: expected a JSON object"), "\(b.standardError)")
    #expect(!b.standardError.contains("not valid JSON."))
    try folder.write(
      "c.json", "{\"format\": \"arsim-track\",\n \"version\": 1000000000000000000, \"poses\": []}")
    let c = runArsim(["track", "info", folder.path + "/c.json"])
    #expect(c.standardError.contains("c.json:2: field 'version'"), "\(c.standardError)")
    #expect(c.standardError.contains("1000000000000000000"))
  }

  @Test("a scene integer too large is reported as written, not as 1e+18")
  func largeInteger() throws {
    let folder = try CatalogFolder()
    defer { folder.remove() }
    try folder.write("track.txt", Self.track)
    try folder.write(
      "s.json",
      Self.scene().replacingOccurrences(
        of: "\"duration\": 0.5", with: "\n \"frames\": 1000000000000000000"))
    let outcome = runArsim(["render", folder.path + "/s.json"])
    #expect(outcome.code == 65)
    #expect(outcome.standardError.contains("s.json:3: field 'frames'"), "\(outcome.standardError)")
    #expect(outcome.standardError.contains("found 1000000000000000000"))
    #expect(!outcome.standardError.contains("e+18"))
  }
}

/// A Bool shared with a rescue thread.
final class LockedFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var flag = false
  var value: Bool {
    get { lock.withLock { flag } }
    set { lock.withLock { flag = newValue } }
  }
}
