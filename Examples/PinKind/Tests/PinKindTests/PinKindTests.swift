import ARRender
import ARSession
import ARSimCLI
import ARSimTesting
import Foundation
import PinKind
import Testing

/// The `pin` kind through ARSim's command line, with this package's own frame sink: only
/// ARSim's products are imported.
@Suite("PinKind")
struct PinKindTests {
  /// A scene folder: a still camera at the origin looking down −Z (three poses of a TUM track
  /// in ARKit axes, y up) and a pin one metre ahead.
  static func sceneFolder(pin: String) throws -> String {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("pin-kind-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let track = (0..<3).map { "\(Double($0) / 10) 0 0 0 0 0 0 1\n" }.joined()
    try Data(track.utf8).write(to: URL(fileURLWithPath: folder + "/track.txt"))
    let scene = """
      {"name": "pin",
       "track": {"path": "track.txt", "format": "tum", "cameraAxes": "arkit", "worldUp": "y"},
       "intrinsics": {"fx": 60, "fy": 60, "cx": 31.5, "cy": 23.5, "width": 64, "height": 48},
       "output": {"width": 64, "height": 48, "fps": 10},
       "duration": 0.2,
       "background": {"color": [0.2, 0.2, 0.4]},
       "pin": \(pin)}
      """
    try Data(scene.utf8).write(to: URL(fileURLWithPath: folder + "/scene.json"))
    return folder
  }

  static var registry: SessionRegistry {
    var registry = SessionRegistry.builtIn
    registry.register(PinKind())
    return registry
  }

  @Test("a pin renders through the command line into this package's frame sink")
  func rendersIntoOwnSink() throws {
    let folder = try Self.sceneFolder(
      pin: #"{"position": [0, 0, -1], "color": [1, 0.6, 0], "size": 0.4, "label": "valve"}"#)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let collector = FrameCollector()
    let code = ARSimCLI.run(
      arguments: ["render", folder + "/scene.json", "--out", folder + "/out"],
      registry: Self.registry, frameSinks: { _ in [collector] })
    #expect(code == 0)
    // 0.2 s at 10 frames/s: frames 0, 1, 2, each handed to the sink in order.
    #expect(collector.frames == [0, 1, 2])
    let image = try #require(collector.lastImage)
    // A 0.4 m box 1 m ahead at fx = 60 spans 24 pixels: the centre is the pin's orange, the
    // corner the background.
    let centre = image[32, 24]
    #expect([centre.r, centre.g, centre.b, centre.a] == [255, 153, 0, 255])
    let corner = image[0, 0]
    #expect([corner.r, corner.g, corner.b, corner.a] == [51, 51, 102, 255])
    assertGolden(image, named: "pin-frame-2")
    // The kind's own trace fields: the node component's and the session's.
    let trace = try String(contentsOfFile: folder + "/out/trace.jsonl", encoding: .utf8)
    #expect(trace.contains(#""pinLabel":"valve""#))
    #expect(trace.contains(#""pin":{"label":"valve"}"#))
    let events = try String(contentsOfFile: folder + "/out/events.jsonl", encoding: .utf8)
    #expect(events.contains(#""event":"pin-placed","label":"valve""#))
  }

  @Test("a bad pin field is reported with its line and field, through the shared checks")
  func badField() throws {
    let folder = try Self.sceneFolder(pin: #"{"position": [0, 0], "color": [2, 0, 0]}"#)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let output = CapturingOutput()
    let code = ARSimCLI.run(
      arguments: ["render", folder + "/scene.json", "--out", folder + "/out"],
      registry: Self.registry, output: output.commandOutput)
    #expect(code == 65)
    #expect(
      output.errors.contains("scene.json:7: field 'pin.position': expected 3 finite numbers"),
      "\(output.errors)")
  }
}

/// This package's frame sink: keeps the frame indices and the last image.
final class FrameCollector: FrameSink, @unchecked Sendable {  // `lock` guards the state
  private let lock = NSLock()
  private var indices: [Int] = []
  private var last: Image?

  var frames: [Int] { lock.withLock { indices } }
  var lastImage: Image? { lock.withLock { last } }

  func submit(_ frame: OutputFrame) throws {
    lock.withLock {
      indices.append(frame.frame)
      last = frame.rendered.image
    }
  }

  func finish() throws -> [FrameTiming] { [] }
}

/// The command line's output captured in memory.
final class CapturingOutput: @unchecked Sendable {  // `lock` guards `text`
  private let lock = NSLock()
  private var text = ""

  var errors: String { lock.withLock { text } }

  var commandOutput: CommandOutput {
    CommandOutput(
      standardOutput: { _ in },
      standardError: { [self] written in lock.withLock { text += written } })
  }
}
