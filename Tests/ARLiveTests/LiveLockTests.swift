import ARLive
import ARSimCLI
import ARSupport
import ARTestSupport
import Foundation
import Testing

/// A live run into a folder another run is writing takes its lock first: refused with 75
/// before it binds the strokes port, connects to a receiver or writes anything.
@Suite struct LiveLockTests {
  func entries(_ folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
  }

  @Test("render --strokes-port into a locked folder: 75, nothing but the lock file in it")
  func renderStrokesPort() throws {
    let temporary = TemporaryFolder("lock-strokes")
    defer { temporary.remove() }
    let folder = temporary.path
    let out = folder + "/out"
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let held = try OutputFolder(out).lock(waiting: false)
    defer { held.release() }
    let captured = CapturedOutput()
    let code = run(
      arguments: ["render", LiveRunTests.scene, "--strokes-port", "0", "--out", out],
      output: captured.output)
    #expect(code == 75, "\(captured.standardError)")
    #expect(captured.standardError.contains("pass --wait-for-lock"))
    #expect(!captured.standardError.contains("listening"))
    #expect(entries(out) == [OutputFolder.lockName])
  }

  @Test("stream into a locked folder: 75 before it connects (the receiver sees no one)")
  func streamConnectsNothing() throws {
    let temporary = TemporaryFolder("lock-stream")
    defer { temporary.remove() }
    let folder = temporary.path
    let out = folder + "/tx"
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let held = try OutputFolder(out).lock(waiting: false)
    defer { held.release() }
    let listener = try TCPListener(endpoint: LoopbackEndpoint(port: 0))
    let captured = CapturedOutput()
    let code = run(
      arguments: [
        "stream", LiveRunTests.scene, "--port", String(listener.endpoint.port), "--tx-token",
        "EXT", "--rx-token", "APP", "--out", out, "--connect-timeout", "2",
      ], output: captured.output)
    #expect(code == 75, "\(captured.standardError)")
    #expect(!captured.standardError.contains("connecting"))
    #expect(try listener.waitForConnection(timeout: .milliseconds(300)) == false)
    #expect(entries(out) == [OutputFolder.lockName])
  }

  @Test("stream --wait-for-lock says once whom it waits for, then runs when the lock is free")
  func streamWaits() throws {
    let temporary = TemporaryFolder("lock-wait")
    defer { temporary.remove() }
    let folder = temporary.path
    let out = folder + "/out"
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let held = try OutputFolder(out).lock(waiting: false)
    let captured = CapturedOutput()
    let render = Background {
      run(
        arguments: [
          "render", LiveRunTests.scene, "--strokes-port", "0", "--out", out, "--frames", "0..1",
          "--as-fast-as-possible", "--wait-for-lock",
        ], output: captured.output)
    }
    let deadline = Date(timeIntervalSinceNow: 10)
    while !captured.standardError.contains("waiting for"), Date() < deadline { usleep(10_000) }
    held.release()
    #expect(try render.value(seconds: 30) == 0, "\(captured.standardError)")
    let waits = captured.standardError.split(separator: "\n").filter {
      $0.contains("waiting for")
    }
    #expect(waits == ["arsim render: waiting for pid \(getpid())'s lock on \(out)"])
  }
}
