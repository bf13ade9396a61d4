import ARRender
import ARReplay
import ARSession
import ARSimCLI
import ARTestSupport
import Foundation
import Testing

/// A user's own session kind (`MarkerKind`) registered after the built-in ones and run through
/// the standard command line and frame loop.
@Suite("Custom session kind")
struct MarkerSessionTests {
  /// Camera at the origin looking down −Z (ARKit axes), still; 16×12 output, 10 frames/s, 0.5 s
  /// (frames 0…5 at τ = 0, 0.1, …, 0.5; AR ticks at 60 Hz).
  static let track = "0.0 0 0 0 0 0 0 1\n1.0 0 0 0 0 0 0 1\n"
  static func scene(marker: String) -> String {
    """
    {"name": "marker",
     "track": {"path": "track.txt", "format": "tum", "cameraAxes": "arkit", "worldUp": "y"},
     "output": {"width": 16, "height": 12, "fps": 10},
     "duration": 0.5,
     "marker": \(marker)
    }
    """
  }

  static func folder(marker: String) throws -> String {
    let path = TemporaryFolder("marker").path
    try Self.track.write(toFile: path + "/track.txt", atomically: true, encoding: .utf8)
    try Self.scene(marker: marker).write(
      toFile: path + "/scene.json", atomically: true, encoding: .utf8)
    return path
  }

  static var registry: SessionRegistry {
    var registry = SessionRegistry.builtIn
    registry.register(MarkerKind())
    return registry
  }

  /// Runs `arsim ARGUMENTS` in-process with `registry`; returns the exit code and stderr.
  static func arsim(_ arguments: [String], registry: SessionRegistry) -> (Int32, String) {
    let errors = Captured()
    let output = CommandOutput(standardOutput: { _ in }, standardError: { errors.append($0) })
    let code = ARSimCLI.run(arguments: arguments, registry: registry, output: output)
    return (code, errors.text)
  }

  static func lines(_ path: String) throws -> [[String: Any]] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  @Test("the marker's section, event, trace field and pixels come through the loop")
  func rendersThroughTheLoop() throws {
    let folder = try Self.folder(
      marker: #"{"position": [0, 0, -1], "appearsAt": 0.25, "radius": 0.2}"#)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let (code, errors) = Self.arsim(
      ["render", folder + "/scene.json", "--out", folder + "/out"], registry: Self.registry)
    #expect(code == 0, "\(errors)")
    #expect(!errors.contains("not a scene field"))

    // τ = 0.25 is AR tick 15, first output after it frame 3 (τ = 0.3, tick 18).
    let events = try Self.lines(folder + "/out/events.jsonl")
    #expect(events.count == 1)
    #expect(events.first?["event"] as? String == "marker-shown")
    #expect(events.first?["frame"] as? Int == 3)
    #expect(events.first?["t"] as? Double == 0.25)
    #expect(events.first?["position"] as? [Double] == [0, 0, -1])

    let trace = try Self.lines(folder + "/out/trace.jsonl")
    #expect(trace.count == 6)
    let visible = trace.map { ($0["marker"] as? [String: Any])?["visible"] as? Bool }
    #expect(visible == [false, false, false, true, true, true])

    // The sphere (radius 0.2 m at 1 m: fx · 0.2 ≈ 2.5 px) covers the image centre, unlit red;
    // before it appears the centre shows the default mid-grey background.
    let before = try Image(contentsOfPNG: folder + "/out/frame_00002.png")
    let after = try Image(contentsOfPNG: folder + "/out/frame_00003.png")
    let grey = before[8, 6]
    #expect(grey.r == grey.g && grey.g == grey.b && grey.r > 100 && grey.r < 160)
    let red = after[8, 6]
    #expect(red.r == 255 && red.g == 0 && red.b == 0)
    #expect(after[0, 0] == before[0, 0])  // a corner stays background
  }

  @Test("the marker's section errors name the scene file, line and field")
  func sectionErrorsAreLocated() throws {
    let folder = try Self.folder(marker: #"{"position": [0, 0]}"#)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let (code, errors) = Self.arsim(
      ["render", folder + "/scene.json", "--out", folder + "/out"], registry: Self.registry)
    #expect(code == 65)
    #expect(errors.contains("scene.json:5:"), "\(errors)")
    #expect(errors.contains("field 'marker.position'"), "\(errors)")
    #expect(errors.contains("expected 3 finite numbers"), "\(errors)")
    #expect(!FileManager.default.fileExists(atPath: folder + "/out/trace.jsonl"))

    // A decoding error inside the section gets its field path from the section's key.
    let typed = try Self.folder(marker: #"{"position": "here"}"#)
    defer { try? FileManager.default.removeItem(atPath: typed) }
    let (typedCode, typedErrors) = Self.arsim(
      ["render", typed + "/scene.json", "--out", typed + "/out"], registry: Self.registry)
    #expect(typedCode == 65)
    #expect(typedErrors.contains("field 'marker.position'"), "\(typedErrors)")
    #expect(typedErrors.contains("expected an array"), "\(typedErrors)")

    // A number a plain `Int` field cannot hold: Foundation names no field, so the section is
    // named, with its line (it said "invalid JSON or value" of the whole, valid file).
    for copies in ["1.5", "99999999999999999999"] {
      let number = try Self.folder(marker: #"{"position": [0, 0, -1], "copies": "# + copies + "}")
      defer { try? FileManager.default.removeItem(atPath: number) }
      let (numberCode, numberErrors) = Self.arsim(
        ["render", number + "/scene.json", "--out", number + "/out"], registry: Self.registry)
      #expect(numberCode == 65)
      #expect(numberErrors.contains("scene.json:5: field 'marker': "), "\(numberErrors)")
      #expect(
        numberErrors.contains("a number in this section does not fit its field's type"),
        "\(numberErrors)")
    }
  }

  @Test("without the kind registered the section is an unknown field and nothing is drawn")
  func unregisteredKindIsIgnored() throws {
    let folder = try Self.folder(marker: #"{"position": [0, 0, -1], "radius": 0.2}"#)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let (code, errors) = Self.arsim(
      ["render", folder + "/scene.json", "--out", folder + "/out"], registry: .builtIn)
    #expect(code == 0)
    #expect(errors.contains("field 'marker' is not a scene field; ignored"), "\(errors)")
    let trace = try Self.lines(folder + "/out/trace.jsonl")
    #expect(trace.allSatisfy { $0["marker"] == nil })
    let image = try Image(contentsOfPNG: folder + "/out/frame_00003.png")
    #expect(image[8, 6].g > 100)
  }

  @Test("frame sinks get every frame with its τ; the overlay draws before the PNG sink")
  func sinksAndOverlay() throws {
    let folder = try Self.folder(marker: #"{"position": [0, 0, -1], "appearsAt": 0.25}"#)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let scene = try ReplayScene.load(path: folder + "/scene.json", registry: Self.registry)
    let sink = RecordingSink()
    let overlay = CornerOverlay()
    var options = ReplayOptions(outputDirectory: folder + "/out", threads: 1)
    options.frameSinks = { @Sendable setup in
      #expect(setup.frames == 0...5)
      return [sink]
    }
    options.overlay = overlay
    let summary = try Replay(scene: scene).run(options)
    #expect(summary.framesWritten == [0, 1, 2, 3, 4, 5])
    let frames = sink.frames
    #expect(frames.map(\.frame) == [0, 1, 2, 3, 4, 5])
    #expect(frames.map(\.t) == [0, 0.1, 0.2, 0.3, 0.4, 0.5])
    #expect(frames.map(\.corner) == Array(repeating: 255, count: 6))
    #expect(sink.finished)
    #expect(overlay.texts == ["WAITING", "WAITING", "WAITING", "MARKER", "MARKER", "MARKER"])
    // The PNG sink got the same overlaid frames.
    let png = try Image(contentsOfPNG: folder + "/out/frame_00004.png")
    #expect(png[0, 0] == (255, 255, 255, 255))
  }
}

/// Collects what the frame loop hands over.
final class RecordingSink: FrameSink, @unchecked Sendable {
  private let lock = NSLock()
  private var received: [(frame: Int, t: Double, corner: UInt8)] = []
  private var done = false

  var frames: [(frame: Int, t: Double, corner: UInt8)] { lock.withLock { received } }
  var finished: Bool { lock.withLock { done } }

  func submit(_ frame: OutputFrame) throws {
    lock.withLock {
      received.append((frame.frame, frame.t, frame.rendered.image[0, 0].r))
    }
  }

  func finish() throws -> [FrameTiming] {
    lock.withLock { done = true }
    return []
  }
}

/// Paints the top-left pixel white and remembers the marker's on-screen text per frame.
final class CornerOverlay: FrameOverlay, @unchecked Sendable {
  private let lock = NSLock()
  private var seen: [String] = []
  var texts: [String] { lock.withLock { seen } }

  func draw(_ texts: [OverlayText], on rendered: inout RenderedFrame, frame: Int, t: Double) {
    lock.withLock { seen += texts.filter { $0.source == "marker" }.flatMap(\.lines) }
    rendered.image.pixels.replaceSubrange(0..<4, with: [255, 255, 255, 255])
  }
}

/// Text written from any thread.
final class Captured: @unchecked Sendable {
  private let lock = NSLock()
  private var value = ""
  var text: String { lock.withLock { value } }
  func append(_ s: String) { lock.withLock { value += s } }
}
