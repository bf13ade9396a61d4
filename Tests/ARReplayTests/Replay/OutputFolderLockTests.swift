import ARSupport
import ARTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Two writers never share an output folder: a second `arsim render` into a folder another
/// process holds fails with exit 75, or waits with `--wait-for-lock`. The other process is
/// util-linux's `flock(1)` holding the folder's lock file, a peer this project did not write.
@Suite("render output folder lock", .serialized)
struct OutputFolderLockTests {
  /// A fixture with a 5-frame scene and `out/` made.
  static func fixture() throws -> ReplayFixture {
    let fixture = try ReplayFixture()
    try FileManager.default.createDirectory(
      atPath: fixture.directory + "/out", withIntermediateDirectories: true)
    try fixture.writeTrack("track.json", [(0, .identity), (2, .identity)])
    try fixture.write(
      "scene.json",
      """
      {"name": "lock", "track": {"path": "track.json", "format": "json"},
       "output": {"width": 16, "height": 12, "fps": 10}, "duration": 0.4}
      """)
    return fixture
  }

  /// Starts `flock -x LOCKFILE sleep SECONDS` and returns once it holds the lock (checked by
  /// a non-blocking `flock` of our own, at most 5 s).
  static func holdLock(_ lockFile: String, seconds: Int) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
    process.arguments = ["-x", lockFile, "sleep", String(seconds)]
    try process.run()
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline {
      let fd = open(lockFile, O_RDONLY)
      if fd >= 0 {
        let free = flock(fd, LOCK_EX | LOCK_NB) == 0
        close(fd)
        if !free { return process }
      }
      usleep(20_000)
    }
    process.terminate()
    throw InputError(.badData, InputLocation(file: lockFile), "flock(1) did not take the lock")
  }

  func render(_ arguments: [String]) -> (Int32, String) {
    let (status, output) = runCommand(["render"] + arguments)
    return (status, output.standardError)
  }

  @Test("a second writer is refused with exit 75 and a clear message; the folder is untouched")
  func busyFolder() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    let out = fixture.directory + "/out"
    try fixture.write("out/trace.jsonl", "earlier\n")
    let holder = try Self.holdLock(out + "/" + OutputFolder.lockName, seconds: 10)
    defer {
      holder.terminate()
      holder.waitUntilExit()
    }
    let (code, message) = render([fixture.directory + "/scene.json", "--out", out])
    #expect(code == 75, "\(message)")
    #expect(message.contains("another arsim process"), "\(message)")
    #expect(message.contains("--wait-for-lock"), "\(message)")
    #expect(try String(contentsOfFile: out + "/trace.jsonl", encoding: .utf8) == "earlier\n")
    #expect(!FileManager.default.fileExists(atPath: out + "/frame_00000.png"))
  }

  @Test("--wait-for-lock waits for the holder to finish, then writes the whole run")
  func waitForLock() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    let out = fixture.directory + "/out"
    let holder = try Self.holdLock(out + "/" + OutputFolder.lockName, seconds: 1)
    defer { holder.waitUntilExit() }
    let start = Date()
    let (code, message) = render([
      fixture.directory + "/scene.json", "--out", out, "--wait-for-lock",
    ])
    #expect(code == 0, "\(message)")
    // flock(1) held the lock for 1 s after `holdLock` returned: the run waited for it.
    #expect(Date().timeIntervalSince(start) > 0.5)
    #expect(try fixture.jsonLines("trace.jsonl").map { $0["frame"] as? Int } == [0, 1, 2, 3, 4])
  }

  @Test("the lock is released at the end of a run: a second run into the folder succeeds")
  func sequentialRuns() throws {
    let fixture = try Self.fixture()
    defer { fixture.remove() }
    let out = fixture.directory + "/out"
    for _ in 0..<2 {
      let (code, message) = render([fixture.directory + "/scene.json", "--out", out])
      #expect(code == 0, "\(message)")
    }
    let fd = open(out + "/" + OutputFolder.lockName, O_RDONLY)
    defer { close(fd) }
    #expect(fd >= 0)
    #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
  }
}
