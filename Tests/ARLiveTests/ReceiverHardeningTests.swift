@testable import ARLive
import ARRender
import ARSimCLI
import ARTestSupport
import Foundation
import Testing

/// `arsim receive` against hostile sequence numbers, a second receiver in its folder, and
/// failures before the stream: it never traps, locks its folder as `render` does, and writes
/// `receive.json` on every way out. Loopback only; every wait is bounded (accept timeouts of
/// at most 5 s, `Background.value` at most 10 s).
@Suite struct ReceiverHardeningTests {
  /// Receiver options on a fresh port with a private stop signal.
  static func options(_ folder: String, acceptSeconds: Int64 = 5) -> FrameReceiver.Options {
    var options = FrameReceiver.Options(
      endpoint: LoopbackEndpoint(port: 0),
      acceptor: BroadcastAcceptor(
        peerToken: "EXT", myToken: "APP", acceptTimeout: .seconds(acceptSeconds),
        handshakeTimeout: .seconds(2)),
      outputDirectory: folder)
    options.stop = StopSignal()
    options.idleTimeout = .seconds(3)
    return options
  }

  /// Starts a receiver into `folder`, sends an 8×8 I420 frame per sequence number, then
  /// `tail` bytes (a cut header), closes, and returns the summary.
  static func receive(
    _ sequences: [UInt64], tail: [UInt8] = [], into folder: String
  ) throws -> FrameReceiver.Summary {
    let frames = sequences.map { sequence in
      WireFrame.encode(
        Image(width: 8, height: 8), format: .i420, sequence: sequence, presentationMicroseconds: 0)
    }
    return try receive(sending: frames + (tail.isEmpty ? [] : [tail]), into: folder)
  }

  /// Starts a receiver into `folder`, sends `messages` (each a frame or any bytes), closes,
  /// and returns the summary.
  static func receive(sending messages: [[UInt8]], into folder: String) throws
    -> FrameReceiver.Summary
  {
    let bound = PortBox()
    let options = Self.options(folder)
    let receiver = Background { try FrameReceiver(options: options).run { bound.set($0) } }
    let sender = BroadcastSender(
      endpoint: try bound.wait(), transmissionToken: "EXT", receptionToken: "APP")
    let connection = try sender.connect()
    for message in messages { try connection.send(message, timeout: .seconds(2)) }
    connection.close()
    return try receiver.value()
  }

  static func lines(_ path: String) throws -> [[String: Any]] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  static func summaryFile(_ folder: String) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/receive.json"))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  // MARK: Item 1: sequence numbers are the sender's input

  @Test("sequence 2⁶⁴ − 1 then another frame: out of order, no trap; written as the wire has it")
  func largestSequenceThenMore() throws {
    let folder = TemporaryFolder("live-rx-max").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let summary = try Self.receive([0, UInt64.max, 3, UInt64.max], into: folder)
    #expect(summary.frames == 4)
    // 3 after 2⁶⁴ − 1 is out of order; 2⁶⁴ − 1 again is a repeat.
    #expect(summary.outOfOrder == 1)
    #expect(summary.duplicates == [UInt64.max])
    #expect(summary.gaps.count == 1)
    #expect(summary.gaps.first?.first == 1 && summary.gaps.first?.count == UInt64.max - 1)
    #expect(summary.failure == nil)
    // Parsed as text: JSONSerialization would round 2⁶⁴ − 1 through a Double.
    let text = try String(contentsOfFile: folder + "/received.jsonl", encoding: .utf8)
    let rows = text.split(separator: "\n")
    #expect(rows.count == 4)
    #expect(rows[1].contains("\"sequence\":18446744073709551615,"), "\(rows[1])")
    #expect(rows[1].contains("\"missingBefore\":18446744073709551614"), "\(rows[1])")
    #expect(rows[1].contains("\"file\":\"frame_18446744073709551615.png\""), "\(rows[1])")
    #expect(rows[2].contains("\"sequence\":3,") && rows[2].contains("\"outOfOrder\":true"))
    #expect(FileManager.default.fileExists(atPath: folder + "/frame_18446744073709551615.png"))
    let json = try String(contentsOfFile: folder + "/receive.json", encoding: .utf8)
    #expect(json.contains("\"missing\":18446744073709551614"), "\(json)")
    #expect(json.contains("{\"first\":1,\"count\":18446744073709551614}"), "\(json)")
  }

  @Test("5, 3, 5: 3 is out of order, the repeated 5 is logged and reported, its file kept")
  func repeatedSequence() throws {
    let temporary = TemporaryFolder("rx-repeat")
    defer { temporary.remove() }
    let folder = temporary.path
    let bound = PortBox()
    let options = Self.options(folder)
    let receiver = Background { try FrameReceiver(options: options).run { bound.set($0) } }
    let sender = BroadcastSender(
      endpoint: try bound.wait(), transmissionToken: "EXT", receptionToken: "APP")
    let connection = try sender.connect()
    // The repeat is 16 px wide: the file of frame 5 must stay the first one's (8 px).
    for (sequence, width) in [(5, 8), (3, 8), (5, 16)] as [(UInt64, Int)] {
      try connection.send(
        WireFrame.encode(
          Image(width: width, height: 8), format: .i420, sequence: sequence,
          presentationMicroseconds: 0), timeout: .seconds(2))
    }
    connection.close()
    let summary = try receiver.value()
    #expect(summary.frames == 3)
    #expect(summary.outOfOrder == 1)
    #expect(summary.duplicates == [5])
    let rows = try Self.lines(folder + "/received.jsonl")
    #expect(rows.map { $0["sequence"] as? Int } == [5, 3, 5])
    #expect(rows[1]["outOfOrder"] as? Bool == true)
    #expect(rows[2]["duplicate"] as? Bool == true && rows[2]["file"] == nil)
    #expect(rows[2]["width"] as? Int == 16)
    let png = try Data(contentsOf: URL(fileURLWithPath: folder + "/frame_00005.png"))
    #expect(Array(png[16..<20]) == [0, 0, 0, 8])  // IHDR width
    #expect(try Self.summaryFile(folder)["duplicates"] as? Int == 1)
  }

  @Test("a header longer than 40 bytes counts whole in 'bytes' (header + payload, Live.md)")
  func longerHeaderCounted() throws {
    let folder = TemporaryFolder("live-rx-long-header").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let frame = WireFrame.encode(
      Image(width: 8, height: 8), format: .i420, sequence: 0, presentationMicroseconds: 0)
    // 8×8 I420: 64 + 2 · 16 payload bytes after the 40-byte header.
    #expect(frame.count == 40 + 96)
    // The same frame as sequence 1 with a 48-byte header: its length field (bytes 6–7, big
    // endian) says 48, and 8 bytes the receiver skips follow the 40 it reads.
    var longer = Array(frame[..<40]) + [UInt8](repeating: 0xA5, count: 8) + frame[40...]
    longer[6] = 0
    longer[7] = 48
    longer[15] = 1  // the sequence's lowest byte (bytes 8–15)
    let summary = try Self.receive(sending: [frame, longer], into: folder)
    #expect(summary.frames == 2 && summary.failure == nil)
    let rows = try Self.lines(folder + "/received.jsonl")
    #expect(rows.map { $0["bytes"] as? Int } == [136, 144])
    #expect(summary.bytes == 280)
    #expect(try Self.summaryFile(folder)["bytes"] as? Int == 280)
  }

  @Test("sequences ≥ 2⁶³ are not clamped: the line and the file name agree")
  func sequencesAboveInt64() throws {
    let folder = TemporaryFolder("live-rx-2-63").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let high: UInt64 = (1 << 63) + 5  // 9223372036854775813
    let summary = try Self.receive([high - 1, high], into: folder)
    #expect(summary.frames == 2 && summary.gaps.isEmpty && summary.outOfOrder == 0)
    let text = try String(contentsOfFile: folder + "/received.jsonl", encoding: .utf8)
    #expect(text.contains("\"sequence\":9223372036854775812,"), "\(text)")
    #expect(text.contains("\"sequence\":9223372036854775813,"), "\(text)")
    #expect(text.contains("\"file\":\"frame_9223372036854775813.png\""), "\(text)")
    #expect(!text.contains("9223372036854775807"), "clamped: \(text)")
  }

  @Test("a header cut after sequence 2⁶⁴ − 1 is 'closed' in the middle of a frame, not a trap")
  func cutAfterLargestSequence() throws {
    let folder = TemporaryFolder("live-rx-max-cut").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let summary = try Self.receive([UInt64.max], tail: Array("ARSF".utf8), into: folder)
    #expect(summary.frames == 1)
    #expect(summary.failure?.failure == .closed)
    #expect(summary.failure?.detail.contains("in the middle of a frame") == true)
    #expect(try Self.summaryFile(folder)["end"] as? String == "closed")
  }

  @Test("a payload cut short names its frame, whose header was read")
  func cutInPayload() throws {
    let folder = TemporaryFolder("live-rx-payload-cut").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let frame = WireFrame.encode(
      Image(width: 8, height: 8), format: .i420, sequence: 7, presentationMicroseconds: 0)
    // Frame 6 whole, then frame 7's header and half its payload.
    let summary = try Self.receive([6], tail: Array(frame[..<(40 + 48)]), into: folder)
    #expect(summary.frames == 1)
    #expect(summary.failure?.failure == .closed)
    #expect(
      summary.failure?.detail.contains("in the middle of frame 7 (payload:") == true,
      "\(String(describing: summary.failure))")
  }

  @Test(
    "the gap rule at the edges of UInt64",
    arguments: [
      (nil, 5, nil), (UInt64?(4), 5, nil), (5, 5, nil), (UInt64.max, 0, nil),
      (UInt64.max, UInt64.max, nil), (0, UInt64.max, (1, UInt64.max - 1)),
      (UInt64.max - 2, UInt64.max, (UInt64.max - 1, 1)),
    ] as [(UInt64?, UInt64, (UInt64, UInt64)?)])
  func gapRule(previous: UInt64?, sequence: UInt64, expected: (UInt64, UInt64)?) {
    let gap = FrameReceiver.gap(after: previous, at: sequence)
    #expect(gap?.first == expected?.0 && gap?.count == expected?.1)
  }

  // MARK: Item 7: one receiver per folder

  @Test(
    "a second receiver into a folder being received into: 75 naming the lock; the first's lines stay"
  )
  func secondReceiverRefused() throws {
    let folder = TemporaryFolder("live-rx-lock").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let bound = PortBox()
    let first = Self.options(folder, acceptSeconds: 3)
    let running = Background { () -> String in
      do {
        _ = try FrameReceiver(options: first).run { bound.set($0) }
        return "returned"
      } catch {
        return "\(error)"
      }
    }
    _ = try bound.wait()
    let captured = CapturedOutput()
    let code = ARSimCLI.run(
      arguments: [
        "receive", "--port", "0", "--peer-token", "EXT", "--my-token", "APP", "--out", folder,
        "--accept-timeout", "1",
      ], output: captured.output)
    #expect(code == 75, "\(captured.standardError)")
    #expect(captured.standardError.contains("--wait-for-lock"), "\(captured.standardError)")
    #expect(!captured.standardError.contains("listening on"), "\(captured.standardError)")
    // The first receiver is untouched: it times out waiting for a sender, as it would alone.
    #expect(try running.value(seconds: 10).contains("timed out"))
    #expect(try Self.summaryFile(folder)["end"] as? String == "timed out")
  }

  @Test("--wait-for-lock: the second receiver waits for the first to finish, then runs")
  func secondReceiverWaits() throws {
    let folder = TemporaryFolder("live-rx-lock-wait").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let bound = PortBox()
    let first = Self.options(folder, acceptSeconds: 1)
    let running = Background { () -> Bool in
      (try? FrameReceiver(options: first).run { bound.set($0) }) != nil
    }
    _ = try bound.wait()
    let start = ContinuousClock.now
    var second = Self.options(folder, acceptSeconds: 1)
    second.waitsForLock = true
    #expect(throws: LiveError.self) { _ = try FrameReceiver(options: second).run() }
    // The first held the folder for its 1 s accept timeout, then the second waited 1 s more.
    #expect(ContinuousClock.now - start >= .milliseconds(1500))
    #expect(try running.value() == false)
  }

  // MARK: Item 8: receive.json on every way out; a bad --out before listening

  @Test("no sender within --accept-timeout: 69, receive.json says 'timed out' with the detail")
  func noSender() throws {
    let folder = TemporaryFolder("live-rx-nobody").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let captured = CapturedOutput()
    let code = ARSimCLI.run(
      arguments: [
        "receive", "--port", "0", "--peer-token", "EXT", "--my-token", "APP", "--out", folder,
        "--accept-timeout", "0.3",
      ], output: captured.output)
    #expect(code == 69, "\(captured.standardError)")
    let json = try Self.summaryFile(folder)
    #expect(json["end"] as? String == "timed out")
    #expect(json["frames"] as? Int == 0)
    #expect((json["detail"] as? String)?.isEmpty == false, "\(json)")
  }

  @Test("a sender with the wrong token: 76, receive.json says 'rejected'")
  func rejectedToken() throws {
    let folder = TemporaryFolder("live-rx-rejected").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let bound = PortBox()
    let options = Self.options(folder)
    let receiver = Background { () -> String in
      do {
        _ = try FrameReceiver(options: options).run { bound.set($0) }
        return "returned"
      } catch {
        return (error as? LiveError)?.failure.rawValue ?? "\(error)"
      }
    }
    let sender = BroadcastSender(
      endpoint: try bound.wait(), transmissionToken: "XYZ", receptionToken: "APP",
      handshakeTimeout: .seconds(2))
    #expect(throws: LiveError.self) { _ = try sender.connect() }
    #expect(try receiver.value() == "rejected")
    let json = try Self.summaryFile(folder)
    #expect(json["end"] as? String == "rejected")
    #expect((json["detail"] as? String)?.contains("token other than --peer-token") == true)
  }

  @Test("a stale receive.json of an earlier run is gone once a new run starts")
  func staleSummaryRemoved() throws {
    let folder = TemporaryFolder("live-rx-stale").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    _ = try Self.receive([0, 1, 2], into: folder)
    #expect(try Self.summaryFile(folder)["frames"] as? Int == 3)
    let options = Self.options(folder, acceptSeconds: 1)
    #expect(throws: LiveError.self) { _ = try FrameReceiver(options: options).run() }
    #expect(try Self.summaryFile(folder)["frames"] as? Int == 0)
  }

  @Test(
    "an --out that cannot be a folder is refused (73) before listening, even on a taken port",
    arguments: ["file", "file/sub"])
  func badOutput(suffix: String) throws {
    let folder = TemporaryFolder("live-rx-bad-out").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(FileManager.default.createFile(atPath: folder + "/file", contents: Data("x".utf8)))
    // The port is taken: a receiver that listened first would exit 64 (address in use).
    let taken = try TCPListener(endpoint: LoopbackEndpoint(port: 0))
    let captured = CapturedOutput()
    let code = ARSimCLI.run(
      arguments: [
        "receive", "--port", String(taken.endpoint.port), "--peer-token", "EXT", "--my-token",
        "APP", "--out", folder + "/" + suffix, "--accept-timeout", "1",
      ], output: captured.output)
    #expect(code == 73, "\(captured.standardError)")
    #expect(captured.standardError.contains(folder + "/file"), "\(captured.standardError)")
    #expect(!captured.standardError.contains("listening on"), "\(captured.standardError)")
  }
}
