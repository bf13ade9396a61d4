import ARLive
import ARRender
import ARTestSupport
import Foundation
import Testing

/// The broadcast sender against peers it did not write: socat as the app side.
@Suite struct SenderInteropTests {
  /// socat as the app: it stores the token it got, answers with `reply` and keeps the frames.
  func socatApp(_ folder: String, tokenBytes: Int, reply: String, port: UInt16) throws -> Child {
    let script = "head -c \(tokenBytes) > token.bin; printf '%s' '\(reply)'; cat > frames.bin"
    let child = try Child(
      socat, ["TCP-LISTEN:\(port),bind=127.0.0.1,reuseaddr", "SYSTEM:\(script)"],
      directory: folder)
    try waitUntilListening(port)
    return child
  }

  @Test("handshake and three I420 frames to socat; ffmpeg decodes the payload to the colour")
  func framesToSocat() throws {
    let folder = TemporaryFolder("live-sender-socat").path
    let port = try freePort()
    let app = try socatApp(folder, tokenBytes: 7, reply: "APP-TOK", port: port)
    let sender = BroadcastSender(
      endpoint: LoopbackEndpoint(port: port), transmissionToken: "EXT-TOK",
      receptionToken: "APP-TOK", connectTimeout: .seconds(3), handshakeTimeout: .seconds(3))
    let connection = try sender.connect()
    #expect(sender.state == .connected)
    #expect(sender.transitions.map(\.state) == [.started, .handshaking, .connected])
    #expect(connection.isNoDelay)
    let streamer = FrameStreamer(connection: connection)
    let image = Image(width: 6, height: 4, fill: (200, 30, 90, 255))
    for sequence in 0..<3 {
      let bytes = WireFrame.encode(
        image, format: .i420, sequence: UInt64(sequence),
        presentationMicroseconds: Int64(sequence) * 33_333)
      #expect(try streamer.offer(sequence: UInt64(sequence), bytes: bytes))
      // Each frame leaves before the next is offered: nothing may be dropped.
      let deadline = Date(timeIntervalSinceNow: 3)
      while streamer.sent.count <= sequence, Date() < deadline { usleep(1000) }
    }
    #expect(try streamer.finish().map(\.sequence) == [0, 1, 2])
    #expect(streamer.dropped.isEmpty)
    #expect(app.wait(seconds: 5) == 0)

    let token = try String(contentsOfFile: folder + "/token.bin", encoding: .utf8)
    #expect(token == "EXT-TOK")
    let frames = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/frames.bin")))
    let frameBytes = 40 + 24 + 2 * 3 * 2
    try #require(frames.count == 3 * frameBytes)
    // Sequence and presentation time of the third frame, read at the documented offsets.
    let third = Array(frames[(2 * frameBytes)...])
    #expect(third[15] == 2 && third[8..<15].allSatisfy { $0 == 0 })
    #expect(third[16..<24].reduce(0) { $0 << 8 | Int($1) } == 66_666)
    try Data(frames[(40)..<(frameBytes)]).write(to: URL(fileURLWithPath: folder + "/one.yuv"))
    let ffmpeg = try Child(
      "/usr/bin/ffmpeg",
      [
        "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "6x4", "-i",
        folder + "/one.yuv", "-vf", "scale=in_color_matrix=bt601:in_range=full", "-pix_fmt",
        "rgb24", folder + "/one.png",
      ])
    #expect(ffmpeg.wait(seconds: 20) == 0)
    let decoded = try Image(contentsOfPNG: folder + "/one.png")
    let p = decoded[3, 2]
    #expect(abs(Int(p.r) - 200) <= 3 && abs(Int(p.g) - 30) <= 3 && abs(Int(p.b) - 90) <= 3, "\(p)")
  }

  @Test("an app answering with other bytes is rejected")
  func rejected() throws {
    let folder = TemporaryFolder("live-sender-rejected").path
    let port = try freePort()
    let app = try socatApp(folder, tokenBytes: 3, reply: "NOPE", port: port)
    let sender = BroadcastSender(
      endpoint: LoopbackEndpoint(port: port), transmissionToken: "EXT",
      receptionToken: "OKAY", handshakeTimeout: .seconds(3))
    do {
      _ = try sender.connect()
      Issue.record("connected")
    } catch {
      #expect(error.failure == .rejected)
      #expect(error.detail.contains("'NOPE'"))
    }
    #expect(sender.transitions.map(\.state) == [.started, .handshaking, .failed])
    #expect(sender.transitions.last?.failure == .rejected)
    app.wait(seconds: 5)
  }

  @Test("nothing listening: refused at once")
  func refused() throws {
    let port = try freePort()
    let sender = BroadcastSender(
      endpoint: LoopbackEndpoint(port: port), transmissionToken: "a", receptionToken: "b")
    let start = ContinuousClock.now
    #expect(throws: LiveError.self) { try sender.connect() }
    #expect(sender.transitions.last?.failure == .refused)
    #expect(sender.transitions.map(\.state) == [.started, .failed])
    #expect(ContinuousClock.now - start < .seconds(1))
  }

  @Test("an app that never answers: the handshake times out in its limit")
  func handshakeTimeout() throws {
    let folder = TemporaryFolder("live-sender-silent").path
    let port = try freePort()
    let app = try Child(
      socat, ["TCP-LISTEN:\(port),bind=127.0.0.1,reuseaddr", "SYSTEM:sleep 1"], directory: folder)
    try waitUntilListening(port)
    let sender = BroadcastSender(
      endpoint: LoopbackEndpoint(port: port), transmissionToken: "a", receptionToken: "b",
      handshakeTimeout: .milliseconds(300))
    let start = ContinuousClock.now
    #expect(throws: LiveError.self) { try sender.connect() }
    let elapsed = ContinuousClock.now - start
    #expect(sender.transitions.last?.failure == .timedOut)
    #expect(elapsed >= .milliseconds(290) && elapsed < .seconds(2))
    app.wait(seconds: 5)
  }

  @Test("an app that closes after the token: closed")
  func closedDuringHandshake() throws {
    let folder = TemporaryFolder("live-sender-closed").path
    let port = try freePort()
    let app = try Child(
      socat, ["TCP-LISTEN:\(port),bind=127.0.0.1,reuseaddr", "SYSTEM:head -c 1 >/dev/null"],
      directory: folder)
    try waitUntilListening(port)
    let sender = BroadcastSender(
      endpoint: LoopbackEndpoint(port: port), transmissionToken: "a", receptionToken: "bb",
      handshakeTimeout: .seconds(3))
    let error = #expect(throws: LiveError.self) { try sender.connect() }
    #expect(sender.transitions.last?.failure == .closed)
    // The app answers a wrong token by closing: the message says what to check.
    #expect(error?.detail.contains("is --tx-token right?") == true, "\(String(describing: error))")
    #expect(sender.transitions.last?.detail?.contains("before any answer") == true)
    app.wait(seconds: 5)
  }
}
