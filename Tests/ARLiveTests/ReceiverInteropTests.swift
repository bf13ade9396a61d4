import ARLive
import ARRender
import ARTestSupport
import Foundation
import ARSimCLI
import Testing

/// `arsim receive` against a sender it did not write: socat playing bytes composed here by
/// hand (headers) and by ffmpeg (payloads).
@Suite struct ReceiverInteropTests {
  /// A hand-written version-1 header for a 4 × 2 I420 frame (payload 8 + 2 + 2 bytes).
  static func header(sequence: UInt8, microseconds: (UInt8, UInt8)) -> [UInt8] {
    [0x41, 0x52, 0x53, 0x46, 0, 1, 0, 40]
      + [0, 0, 0, 0, 0, 0, 0, sequence]
      + [0, 0, 0, 0, 0, 0, microseconds.0, microseconds.1]
      + [0, 0, 0, 4, 0, 0, 0, 2] + Array("I420".utf8) + [0, 0, 0, 12]
  }

  /// ffmpeg's I420 (BT.601 full range) of a flat 4 × 2 colour.
  static func ffmpegPayload(_ colour: String, folder: String) throws -> [UInt8] {
    let ffmpeg = try Child(
      "/usr/bin/ffmpeg",
      [
        "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=\(colour):s=4x2", "-frames:v", "1",
        "-vf", "scale=out_color_matrix=bt601:out_range=full", "-pix_fmt", "yuv420p", "-f",
        "rawvideo", folder + "/payload.yuv",
      ])
    #expect(ffmpeg.wait(seconds: 20) == 0)
    return try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/payload.yuv")))
  }

  /// Starts `arsim receive` in-process on `port`, then socat sending `script`'s output
  /// (and reading its answers) over one connection.
  func receive(
    _ extra: [String], folder: String, socatScript: String, port: UInt16
  ) throws -> (Int32, String) {
    let captured = CapturedOutput()
    let out = folder + "/out"
    let receiver = Background {
      run(
        arguments: [
          "receive", "--port", String(port), "--peer-token", "EXT", "--my-token", "APP",
          "--out", out, "--accept-timeout", "5", "--idle-timeout", "2",
        ] + extra, output: captured.output)
    }
    try waitUntilListening(port)
    let peer = try Child(
      socat, ["SYSTEM:\(socatScript)", "TCP:127.0.0.1:\(port)"], directory: folder)
    let code = try receiver.value(seconds: 15)
    peer.wait(seconds: 5)
    return (code, captured.standardError)
  }

  func lines(_ path: String) throws -> [[String: Any]] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  @Test("three frames with a gap: PNGs in the sent colour, received.jsonl and the gap report")
  func framesFromSocat() throws {
    let folder = TemporaryFolder("live-receive-socat").path
    let payload = try Self.ffmpegPayload("0xC81E5A", folder: folder)
    try #require(payload.count == 12)
    let stream =
      Self.header(sequence: 0, microseconds: (0, 0)) + payload
      + Self.header(sequence: 1, microseconds: (0x82, 0x35)) + payload
      + Self.header(sequence: 3, microseconds: (0x86, 0x9F)) + payload
    try Data(stream).write(to: URL(fileURLWithPath: folder + "/frames.bin"))
    let port = try freePort()
    let (code, stderr) = try receive(
      [], folder: folder,
      socatScript: "printf EXT; head -c 3 > reply.bin; cat frames.bin", port: port)
    #expect(code == 0, "\(stderr)")
    #expect(try String(contentsOfFile: folder + "/reply.bin", encoding: .utf8) == "APP")
    let received = try lines(folder + "/out/received.jsonl")
    #expect(received.map { $0["sequence"] as? Int } == [0, 1, 3])
    #expect(received.map { $0["presentationTime"] as? Double } == [0, 0.033333, 0.034463])
    #expect(received[2]["missingBefore"] as? Int == 1)
    #expect(received.allSatisfy { $0["bytes"] as? Int == 52 })
    #expect(stderr.contains("3 frames, 1 missing in 1 gap → "))
    #expect(stderr.contains("gap: 1 frame missing from sequence 2"))
    let summary = try #require(
      JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: folder + "/out/receive.json")))
        as? [String: Any])
    #expect(summary["missing"] as? Int == 1)
    #expect(summary["end"] as? String == "end of stream")
    let image = try Image(contentsOfPNG: folder + "/out/frame_00003.png")
    let p = image[1, 1]
    #expect(abs(Int(p.r) - 200) <= 3 && abs(Int(p.g) - 30) <= 3 && abs(Int(p.b) - 90) <= 3, "\(p)")
  }

  @Test("--no-png checks and counts only")
  func noPNG() throws {
    let folder = TemporaryFolder("live-receive-nopng").path
    let payload = try Self.ffmpegPayload("white", folder: folder)
    try Data(Self.header(sequence: 7, microseconds: (0, 1)) + payload).write(
      to: URL(fileURLWithPath: folder + "/frames.bin"))
    let (code, stderr) = try receive(
      ["--no-png"], folder: folder,
      socatScript: "printf EXT; head -c 3 >/dev/null; cat frames.bin", port: try freePort())
    #expect(code == 0, "\(stderr)")
    #expect(try lines(folder + "/out/received.jsonl").map { $0["sequence"] as? Int } == [7])
    #expect(!FileManager.default.fileExists(atPath: folder + "/out/frame_00007.png"))
  }

  @Test("the sender closing mid-frame: exit 69, the whole frames before it kept")
  func closedMidFrame() throws {
    let folder = TemporaryFolder("live-receive-midframe").path
    let payload = try Self.ffmpegPayload("white", folder: folder)
    try Data(
      Self.header(sequence: 0, microseconds: (0, 0)) + payload
        + Self.header(sequence: 1, microseconds: (0, 1)) + payload.prefix(5)
    ).write(to: URL(fileURLWithPath: folder + "/frames.bin"))
    let (code, stderr) = try receive(
      [], folder: folder,
      socatScript: "printf EXT; head -c 3 >/dev/null; cat frames.bin", port: try freePort())
    #expect(code == 69)
    #expect(stderr.contains("in the middle of"), "\(stderr)")
    #expect(try lines(folder + "/out/received.jsonl").count == 1)
    #expect(FileManager.default.fileExists(atPath: folder + "/out/frame_00000.png"))
    let summary = try String(contentsOfFile: folder + "/out/receive.json", encoding: .utf8)
    #expect(summary.contains("\"end\":\"closed\""))
  }

  @Test("a wrong token is rejected (76); a short one times out (69) in the handshake limit")
  func tokens() throws {
    let folder = TemporaryFolder("live-receive-tokens").path
    let (wrong, wrongText) = try receive(
      [], folder: folder, socatScript: "printf EXX; sleep 0.5", port: try freePort())
    #expect(wrong == 76)
    #expect(wrongText.contains("rejected"), "\(wrongText)")
    let start = Date()
    let (short, shortText) = try receive(
      ["--handshake-timeout", "0.3"], folder: folder, socatScript: "printf EX; sleep 1",
      port: try freePort())
    #expect(short == 69)
    #expect(
      shortText.contains("timed out") && shortText.contains("2 of the token's 3 bytes"),
      "\(shortText)")
    #expect(Date().timeIntervalSince(start) < 4)
  }

  @Test("a bad header is a protocol error (76) naming the field")
  func badHeader() throws {
    let folder = TemporaryFolder("live-receive-bad").path
    var header = Self.header(sequence: 0, microseconds: (0, 0))
    header[39] = 13
    try Data(header + [UInt8](repeating: 0, count: 13)).write(
      to: URL(fileURLWithPath: folder + "/frames.bin"))
    let (code, stderr) = try receive(
      [], folder: folder, socatScript: "printf EXT; head -c 3 >/dev/null; cat frames.bin",
      port: try freePort())
    #expect(code == 76)
    #expect(stderr.contains("payload length 13"), "\(stderr)")
  }

  @Test("a port in use is a usage error (64)")
  func portInUse() throws {
    let holder = try TCPListener(endpoint: LoopbackEndpoint(port: 0))
    let captured = CapturedOutput()
    let code = run(
      arguments: [
        "receive", "--port", String(holder.endpoint.port), "--peer-token", "a", "--my-token",
        "b", "--out", TemporaryFolder("live-inuse").path,
      ], output: captured.output)
    #expect(code == 64)
    #expect(captured.standardError.contains("address in use"))
  }
}
