import ARScene
import ARTestSupport
import Foundation
import Testing

@testable import ARReplay
@testable import ARSimCLI

@Suite("Replay pipeline")
struct ReplayPipelineTests {
  /// A small scene on the data-logger fixture track: spheres, a box and a translucent plane.
  func writeScene(in folder: String) throws -> String {
    let track = Fixtures.path("tracks/arkit_datalogger_camera_pose.txt")
    let text = """
      {
        "name": "pipeline",
        "track": {"path": "\(track)", "format": "arkit"},
        "output": {"width": 96, "height": 72, "fps": 30},
        "frames": 9,
        "nodes": [
          {"position": [0, 0, -0.5], "geometry": {"sphere": {"radius": 0.1}},
           "material": {"diffuse": [1, 0, 0], "specular": [0.3, 0.3, 0.3], "shininess": 24}},
          {"position": [0.1, -0.1, -0.3], "geometry": {"box": {"width": 0.1, "height": 0.1,
           "length": 0.1}}}
        ],
        "planes": [{"position": [0, -0.5, 0], "extent": [3, 3], "visualization": "translucent"}]
      }
      """
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/pipeline.json"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test("pipelined encoding writes the same bytes and lines as a sequential run")
  func pipelinedMatchesSequential() throws {
    let temporary = TemporaryFolder("pipeline")
    defer { temporary.remove() }
    let folder = temporary.path
    let scene = try ReplayScene.load(path: try writeScene(in: folder), registry: .builtIn)
    var sequential = ReplayOptions(outputDirectory: folder + "/sequential", threads: 1)
    sequential.pipelined = false
    var pipelined = ReplayOptions(outputDirectory: folder + "/pipelined", threads: 2)
    pipelined.pipelined = true
    let a = try Replay(scene: scene).run(sequential)
    let b = try Replay(scene: scene).run(pipelined)
    #expect(a.framesWritten == Array(0..<9))
    #expect(b.framesWritten == Array(0..<9))
    #expect(b.frameTimings.map(\.frame) == Array(0..<9))
    #expect(a.encoderThreads == 0)
    #expect(b.encoderThreads >= 2)
    let names = (0..<9).map { "frame_0000\($0).png" } + ["events.jsonl", "trace.jsonl"]
    for name in names {
      let x = try #require(FileManager.default.contents(atPath: folder + "/sequential/" + name))
      let y = try #require(FileManager.default.contents(atPath: folder + "/pipelined/" + name))
      #expect(x == y, "\(name) differs")
    }
    let trace = try String(contentsOfFile: folder + "/pipelined/trace.jsonl", encoding: .utf8)
    #expect(trace.split(separator: "\n").count == 9)
  }

  @Test("render-only runs write no frames and time every frame")
  func renderOnly() throws {
    let temporary = TemporaryFolder("render-only")
    defer { temporary.remove() }
    let folder = temporary.path
    let scene = try ReplayScene.load(path: try writeScene(in: folder), registry: .builtIn)
    var options = ReplayOptions(outputDirectory: folder + "/out", threads: 1)
    options.writesFrames = false
    let summary = try Replay(scene: scene).run(options)
    #expect(summary.framesWritten.isEmpty)
    #expect(summary.frameTimings.count == 9)
    #expect(!FileManager.default.fileExists(atPath: folder + "/out/frame_00000.png"))
  }
}

@Suite("Bench scenes")
struct BenchSceneTests {
  @Test("B1's layout puts 1000 spheres inside a 1920×1440 image at ≥ 20 px projected radius")
  func b1Layout() {
    let k = CameraIntrinsics.defaultCapture
    let layout = BenchScene.b1.layout(intrinsics: k)
    let centres = layout.strokes.flatMap(\.cameraPositions)
    #expect(centres.count == 1000)
    for p in centres {
      let depth = -p.z
      let u = k.fx * p.x / depth + k.cx
      let v = k.cy - k.fy * p.y / depth
      #expect(u >= 0 && u <= 1919 && v >= 0 && v <= 1439)
      #expect(k.fx * BenchScene.sphereWorldRadius / depth >= 20)
    }
    // Deterministic: the same layout every time.
    let again = BenchScene.b1.layout(intrinsics: k).strokes.flatMap(\.cameraPositions)
    #expect(again == centres)
  }

  @Test("B2 has 10 000 spheres")
  func b2Count() {
    let k = CameraIntrinsics.defaultCapture
    #expect(BenchScene.b2.layout(intrinsics: k).strokes.flatMap(\.cameraPositions).count == 10_000)
  }
}
