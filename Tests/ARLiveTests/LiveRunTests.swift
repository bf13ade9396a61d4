import ARBatch
import ARLive
import ARRender
import ARSimCLI
import ARTestSupport
import Foundation
import Testing

/// `arsim stream`, `arsim render --strokes-port` and `arsim receive` together, in-process, on
/// the small fixture scene (37 frames of 160 × 120 at 30 frames/s: about 1.2 s paced).
@Suite struct LiveRunTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("__Fixtures__").path
  static let scene = fixtures + "/live-small.json"
  static let strokes = fixtures + "/live-strokes.jsonl"

  func json(_ path: String) throws -> [String: Any] {
    try #require(
      JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        as? [String: Any])
  }

  func lines(_ path: String) throws -> [[String: Any]] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  /// `arsim receive` in the background on a probed port.
  func startReceiver(_ out: String, extra: [String] = []) throws -> (
    UInt16, Background<Int32>, CapturedOutput
  ) {
    let port = try freePort()
    let captured = CapturedOutput()
    let receiver = Background {
      run(
        arguments: [
          "receive", "--port", String(port), "--peer-token", "EXT", "--my-token", "APP", "--out",
          out, "--accept-timeout", "10", "--idle-timeout", "5",
        ] + extra, output: captured.output)
    }
    try waitUntilListening(port)
    return (port, receiver, captured)
  }

  @Test("ARSim to ARSim: every frame arrives, states and counts in events and run.json")
  func streamToReceive() throws {
    let folder = TemporaryFolder("live-stream-receive").path
    let (port, receiver, rx) = try startReceiver(folder + "/rx")
    let tx = CapturedOutput()
    let start = Date()
    let code = run(
      arguments: [
        "stream", Self.scene, "--port", String(port), "--tx-token", "EXT", "--rx-token", "APP",
        "--out", folder + "/tx",
      ], output: tx.output)
    let elapsed = Date().timeIntervalSince(start)
    #expect(code == 0, "\(tx.standardError)")
    #expect(try receiver.value() == 0, "\(rx.standardError)")
    // Paced: 37 frames at 30 frames/s take at least 36/30 s.
    #expect(elapsed >= 1.15, "\(elapsed)")
    let received = try lines(folder + "/rx/received.jsonl")
    let live = try #require(try json(folder + "/tx/run.json")["live"] as? [String: Any])
    try expectRenderFields(folder + "/tx/run.json")
    #expect(received.count + (live["framesDropped"] as? Int ?? -1) == 37)
    let summary = try json(folder + "/rx/receive.json")
    #expect(summary["end"] as? String == "end of stream")
    let events = try lines(folder + "/tx/events.jsonl").filter {
      $0["event"] as? String == "broadcast-state"
    }
    #expect(events.map { $0["state"] as? String } == ["started", "handshaking", "connected"])
    #expect(events.allSatisfy { ($0["wallTime"] as? Double ?? 0) > 1.7e9 })
    #expect(live["framesSent"] as? Int == received.count)
    #expect(live["pixelFormat"] as? String == "I420")
    #expect((live["tickToWire"] as? [String: Any])?["count"] as? Int == received.count)
    #expect(try lines(folder + "/tx/trace.jsonl").count == 37)
    // The frames are the offline render's, up to 4:2:0 chroma.
    let offline = folder + "/offline"
    #expect(
      run(arguments: ["render", Self.scene, "--out", offline], output: CapturedOutput().output) == 0
    )
    let last = try #require(received.last?["sequence"] as? Int)
    let name = String(format: "frame_%05d.png", last)
    let theirs = try Image(contentsOfPNG: folder + "/rx/" + name)
    let ours = try Image(contentsOfPNG: offline + "/" + name)
    let mean = zip(theirs.pixels, ours.pixels).map { abs(Int($0) - Int($1)) }.reduce(0, +)
    #expect(Double(mean) / Double(ours.pixels.count) < 1.0)
  }

  @Test("stream to socat as the app: the bytes are 37 well-formed frames in sequence")
  func streamToSocat() throws {
    let folder = TemporaryFolder("live-stream-socat").path
    let port = try freePort()
    let app = try Child(
      socat,
      [
        "TCP-LISTEN:\(port),bind=127.0.0.1,reuseaddr",
        "SYSTEM:head -c 3 > token.bin; printf APP; cat > frames.bin",
      ], directory: folder)
    try waitUntilListening(port)
    let tx = CapturedOutput()
    let code = run(
      arguments: [
        "stream", Self.scene, "--port", String(port), "--tx-token", "EXT", "--rx-token", "APP",
        "--out", folder + "/tx", "--as-fast-as-possible", "--pixel-format", "bgra",
      ], output: tx.output)
    #expect(code == 0, "\(tx.standardError)")
    #expect(app.wait(seconds: 5) == 0)
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/frames.bin")))
    let frameBytes = 40 + 160 * 120 * 4
    let live = try #require(try json(folder + "/tx/run.json")["live"] as? [String: Any])
    let sent = try #require(live["framesSent"] as? Int)
    #expect(bytes.count == sent * frameBytes)
    var previous = -1
    for k in 0..<sent {
      let h = Array(bytes[(k * frameBytes)..<(k * frameBytes + 40)])
      #expect(Array(h[0..<4]) == Array("ARSF".utf8) && Array(h[32..<36]) == Array("BGRA".utf8))
      let sequence = h[8..<16].reduce(0) { $0 << 8 | Int($1) }
      #expect(sequence > previous)
      previous = sequence
    }
    #expect(sent + (live["framesDropped"] as? Int ?? -1) == 37)
  }

  @Test("refused and rejected handshakes: exit 69 and 76, the states in events.jsonl")
  func handshakeFailures() throws {
    let folder = TemporaryFolder("live-stream-fail").path
    let refused = CapturedOutput()
    let code = run(
      arguments: [
        "stream", Self.scene, "--port", String(try freePort()), "--tx-token", "EXT",
        "--rx-token", "APP", "--out", folder + "/refused",
      ], output: refused.output)
    #expect(code == 69)
    #expect(refused.standardError.contains("refused"))
    let events = try lines(folder + "/refused/events.jsonl")
    #expect(events.map { $0["state"] as? String } == ["started", "failed"])
    #expect(events.last?["reason"] as? String == "refused")

    let (port, receiver, _) = try startReceiver(folder + "/rx")
    let rejected = CapturedOutput()
    let rejectedCode = run(
      arguments: [
        "stream", Self.scene, "--port", String(port), "--tx-token", "EXT", "--rx-token", "XYZ",
        "--out", folder + "/rejected",
      ], output: rejected.output)
    #expect(rejectedCode == 76, "\(rejected.standardError)")
    #expect(rejected.standardError.contains("rejected"), "\(rejected.standardError)")
    #expect(
      try lines(folder + "/rejected/events.jsonl").map { $0["state"] as? String } == [
        "started", "handshaking", "failed",
      ])
    _ = try? receiver.value()

    // A shorter answer than --rx-token: the sender waits for the rest until its limit.
    let (shortPort, shortReceiver, _) = try startReceiver(folder + "/rx2")
    let short = CapturedOutput()
    let start = Date()
    let shortCode = run(
      arguments: [
        "stream", Self.scene, "--port", String(shortPort), "--tx-token", "EXT", "--rx-token",
        "APPLE", "--handshake-timeout", "0.3", "--out", folder + "/short",
      ], output: short.output)
    #expect(shortCode == 69)
    #expect(short.standardError.contains("timed out"), "\(short.standardError)")
    #expect(Date().timeIntervalSince(start) < 2)
    _ = try? shortReceiver.value()
  }

  @Test("the received strokes never overwrite the scene's own stroke log (64)")
  func recordedLogSparesInputs() throws {
    let folder = TemporaryFolder("live-overwrite").path
    try FileManager.default.createDirectory(
      atPath: folder + "/out", withIntermediateDirectories: true)
    try "".write(toFile: folder + "/out/strokes-received.jsonl", atomically: true, encoding: .utf8)
    let scene = try String(contentsOfFile: Self.scene, encoding: .utf8)
      .replacingOccurrences(of: "\"no-strokes.jsonl\"", with: "\"out/strokes-received.jsonl\"")
      .replacingOccurrences(
        of: "\"tum_fr1_xyz_first3s.txt\"", with: "\"\(Self.fixtures)/tum_fr1_xyz_first3s.txt\"")
    try scene.write(toFile: folder + "/scene.json", atomically: true, encoding: .utf8)
    let captured = CapturedOutput()
    let code = run(
      arguments: [
        "render", folder + "/scene.json", "--strokes-port", "0", "--out", folder + "/out",
      ], output: captured.output)
    #expect(code == 64)
    #expect(captured.standardError.contains("would overwrite the input"))
  }

  @Test("a strokes port in use is a usage error (64) before any connection")
  func strokesPortInUse() throws {
    let holder = try TCPListener(endpoint: LoopbackEndpoint(port: 0))
    let captured = CapturedOutput()
    let code = run(
      arguments: [
        "stream", Self.scene, "--port", String(try freePort()), "--tx-token", "EXT",
        "--rx-token", "APP", "--strokes-port", String(holder.endpoint.port), "--out",
        TemporaryFolder("live-strokes-in-use").path,
      ], output: captured.output)
    #expect(code == 64)
    #expect(captured.standardError.contains("address in use"))
  }

  @Test("a receiver that goes away mid-stream: the stream stops with exit 69, lines so far intact")
  func receiverGoesAway() throws {
    let folder = TemporaryFolder("live-stream-gone").path
    let port = try freePort()
    // socat answers the handshake, takes a few frames, then exits (closing the connection).
    let app = try Child(
      socat,
      [
        "TCP-LISTEN:\(port),bind=127.0.0.1,reuseaddr",
        "SYSTEM:head -c 3 >/dev/null; printf APP; head -c 100000 >/dev/null",
      ], directory: folder)
    try waitUntilListening(port)
    let tx = CapturedOutput()
    let code = run(
      arguments: [
        "stream", Self.scene, "--port", String(port), "--tx-token", "EXT", "--rx-token", "APP",
        "--out", folder + "/tx", "--pixel-format", "bgra",
      ], output: tx.output)
    #expect(code == 69, "\(tx.standardError)")
    #expect(tx.standardError.contains("reset") || tx.standardError.contains("closed"))
    let events = try lines(folder + "/tx/events.jsonl")
    let last = try #require(events.last { $0["event"] as? String == "broadcast-state" })
    #expect(last["state"] as? String == "failed")
    #expect(["reset", "closed"].contains(last["reason"] as? String ?? ""))
    #expect(!FileManager.default.fileExists(atPath: folder + "/tx/run.json"))
    let trace = try String(contentsOfFile: folder + "/tx/trace.jsonl", encoding: .utf8)
    #expect(trace.hasSuffix("\n") && !trace.isEmpty)
    app.wait(seconds: 5)
  }
}

/// Live strokes end to end: `arsim strokes send` into `render --strokes-port` and into
/// `stream --strokes-port` with `arsim receive` on the other side.
@Suite struct LiveStrokeRunTests {
  func json(_ path: String) throws -> [String: Any] {
    try #require(
      JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        as? [String: Any])
  }

  /// Sends the fixture log to `port` once it listens (in the background).
  func sendStrokes(to port: UInt16) throws -> Background<Int32> {
    try waitUntilListening(port)
    return Background {
      run(
        arguments: ["strokes", "send", LiveRunTests.strokes, "--port", String(port)],
        output: CapturedOutput().output)
    }
  }

  @Test(
    "render --strokes-port: the strokes arrive live, and the recorded log replays to the same frames"
  )
  func renderLiveThenReplay() throws {
    let folder = TemporaryFolder("live-render-strokes").path
    let port = try freePort()
    let captured = CapturedOutput()
    let render = Background {
      run(
        arguments: [
          "render", LiveRunTests.scene, "--strokes-port", String(port), "--out", folder + "/live",
        ], output: captured.output)
    }
    let sender = try sendStrokes(to: port)
    #expect(try render.value(seconds: 20) == 0, "\(captured.standardError)")
    #expect(try sender.value() == 0)
    let recorded = folder + "/live/strokes-received.jsonl"
    let log = try String(contentsOfFile: recorded, encoding: .utf8)
    #expect(log.split(separator: "\n").count == 7)
    let events = try String(contentsOfFile: folder + "/live/events.jsonl", encoding: .utf8)
    #expect(events.components(separatedBy: "\"event\":\"touch-start\"").count == 3)
    #expect(events.contains("\"event\":\"live-strokes\""))
    let live = try #require(try json(folder + "/live/run.json")["live"] as? [String: Any])
    #expect(live["strokesReceived"] as? Int == 7)
    #expect(live["strokesUndelivered"] as? Int == 0)
    try expectRenderFields(folder + "/live/run.json")
    let latency = try #require(live["strokeLatency"] as? [String: Any])
    #expect(latency["count"] as? Int == 2)  // the two point messages made spheres
    #expect((latency["medianMilliseconds"] as? Double ?? -1) >= 0)

    // Offline: the same scene with the recorded log as its stroke log.
    var scene = try String(contentsOfFile: LiveRunTests.scene, encoding: .utf8)
    scene = scene.replacingOccurrences(of: "\"no-strokes.jsonl\"", with: "\"\(recorded)\"")
      .replacingOccurrences(
        of: "\"tum_fr1_xyz_first3s.txt\"",
        with: "\"\(LiveRunTests.fixtures)/tum_fr1_xyz_first3s.txt\"")
    try scene.write(toFile: folder + "/replay.json", atomically: true, encoding: .utf8)
    #expect(
      run(
        arguments: ["render", folder + "/replay.json", "--out", folder + "/offline"],
        output: CapturedOutput().output) == 0)
    for frame in 0..<37 {
      let name = String(format: "/frame_%05d.png", frame)
      let a = try Image(contentsOfPNG: folder + "/live" + name)
      let b = try Image(contentsOfPNG: folder + "/offline" + name)
      #expect(a == b, "frame \(frame)")
    }
    // Each sphere names its message's line in the recorded log, live and offline alike.
    func strokeLines(_ run: String) throws -> [Int] {
      let last = try #require(
        String(contentsOfFile: folder + "/" + run + "/trace.jsonl", encoding: .utf8)
          .split(separator: "\n").last)
      let line = try #require(
        JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
      let nodes = try #require(line["nodes"] as? [[String: Any]])
      return nodes.compactMap { $0["strokeLine"] as? Int }
    }
    let liveLines = try strokeLines("live")
    #expect(!liveLines.isEmpty && !liveLines.contains(0), "\(liveLines)")
    #expect(liveLines == (try strokeLines("offline")))
    // The spheres are really there: the last frame differs from the scene without strokes.
    #expect(
      run(
        arguments: ["render", LiveRunTests.scene, "--frames", "36", "--out", folder + "/bare"],
        output: CapturedOutput().output) == 0)
    #expect(
      try Image(contentsOfPNG: folder + "/bare/frame_00036.png")
        != Image(contentsOfPNG: folder + "/live/frame_00036.png"))
  }

  @Test("strokes in, frames with the spheres out through arsim receive")
  func wholeLoop() throws {
    let folder = TemporaryFolder("live-whole-loop").path
    let receivePort = try freePort()
    let rx = CapturedOutput()
    let receiver = Background {
      run(
        arguments: [
          "receive", "--port", String(receivePort), "--peer-token", "EXT", "--my-token", "APP",
          "--out", folder + "/rx", "--accept-timeout", "10",
        ], output: rx.output)
    }
    try waitUntilListening(receivePort)
    let strokesPort = try freePort()
    let tx = CapturedOutput()
    let stream = Background {
      run(
        arguments: [
          "stream", LiveRunTests.scene, "--port", String(receivePort), "--tx-token", "EXT",
          "--rx-token", "APP", "--strokes-port", String(strokesPort), "--out", folder + "/tx",
        ], output: tx.output)
    }
    let sender = try sendStrokes(to: strokesPort)
    #expect(try stream.value(seconds: 20) == 0, "\(tx.standardError)")
    #expect(try receiver.value() == 0, "\(rx.standardError)")
    #expect(try sender.value() == 0)
    #expect(tx.standardError.contains("7 stroke messages received"))
    // The first frame shows no sphere; later ones the blue first stroke (it leaves the view as
    // the camera moves) and the red second one.
    let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/rx").filter {
      $0.hasPrefix("frame_")
    }.sorted()
    let first = try Image(contentsOfPNG: folder + "/rx/" + (names.first ?? ""))
    let last = try Image(contentsOfPNG: folder + "/rx/" + (names.last ?? ""))
    func reddish(_ image: Image) -> Int {
      stride(from: 0, to: image.pixels.count, by: 4).filter {
        Int(image.pixels[$0]) > Int(image.pixels[$0 + 1]) + 80
      }.count
    }
    func bluish(_ image: Image) -> Int {
      stride(from: 0, to: image.pixels.count, by: 4).filter {
        Int(image.pixels[$0 + 2]) > Int(image.pixels[$0]) + 80
      }.count
    }
    #expect(reddish(first) == 0 && bluish(first) == 0)
    #expect(reddish(last) > 10)
    let both = try names.contains { name in
      let image = try Image(contentsOfPNG: folder + "/rx/" + name)
      return bluish(image) > 10 && reddish(image) > 10
    }
    #expect(both)
    let live = try #require(try json(folder + "/tx/run.json")["live"] as? [String: Any])
    #expect((live["strokeLatency"] as? [String: Any])?["count"] as? Int == 2)
  }
}

/// The fields every render's run.json has (Scaling.md), which live runs lacked: the scene
/// inputs with their hash (`SceneFingerprint` of the listed files), no shard, no overlay.
func expectRenderFields(_ path: String) throws {
  let data = try Data(contentsOf: URL(fileURLWithPath: path))
  let run = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  let inputs = try #require(run["sceneInputs"] as? [[String: Any]])
  let paths = inputs.compactMap { $0["path"] as? String }
  #expect(paths.first == LiveRunTests.scene)
  #expect(paths.count == inputs.count && paths.count >= 2, "\(paths)")
  let hash = try #require(run["sceneHash"] as? String)
  #expect(hash == (try SceneFingerprint(paths: paths).sceneHash))
  #expect(run["shard"] is NSNull)
  let overlays = try #require(run["overlays"] as? [String: Bool])
  #expect(overlays == ["hud": false, "featurePoints": false])
}
