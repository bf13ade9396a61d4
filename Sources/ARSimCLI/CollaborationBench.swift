import ARFormats
import ARMath
import ARRender
import ARReplay
import ARScene
import ARSession
import ARSupport
import Foundation

/// `arsim bench B4 [--participants N]`: N participants (default 4) of a collaborative scene at
/// 1280 × 720 against single-view scenes with the same content (Documentation/Performance.md,
/// "B4").
///
/// The participants replay the bench track from starts 0, 2, 4 … s (closer together when the
/// track is too short for 2 s apart), each anchored 1.2 m ahead of and 0.6 m below its first
/// pose, so each sees the others' spheres, the floor and two models; one adds and moves a
/// model. The baseline replays a view's content — the nodes its trace lists at each frame
/// (floor, peers, models) — as plain nodes through the same frame loop, one view, without the
/// collaboration logic, once for each participant's view. The figure of merit is milliseconds
/// per participant-view frame (the multi-view run's wall-clock time over N × frames) over the
/// single-view runs' per frame (their total over N × frames), measured in the same process
/// one after the other; the same two in CPU time (user + system, all threads), which holds on
/// a loaded machine.
enum CollaborationBench {
  struct Result {
    var frames: Int
    var participants: Int
    var multiViewSeconds: Double
    var singleViewSeconds: Double
    /// User + system CPU seconds (the process's `getrusage`, every thread) of the multi-view
    /// run and of the single-view runs: the machine's other load inflates them far less than
    /// wall-clock time.
    var multiViewCPUSeconds: Double
    var singleViewCPUSeconds: Double
    /// The rasterizer build the runs used.
    var instructionSet: InstructionSet
    var viewFrames: Double { Double(participants * frames) }
    var perViewFrameMilliseconds: Double { multiViewSeconds * 1000 / viewFrames }
    var perFrameMilliseconds: Double { singleViewSeconds * 1000 / viewFrames }
    var ratio: Double { perViewFrameMilliseconds / perFrameMilliseconds }
    var cpuPerViewFrameMilliseconds: Double { multiViewCPUSeconds * 1000 / viewFrames }
    var cpuPerFrameMilliseconds: Double { singleViewCPUSeconds * 1000 / viewFrames }
  }

  /// The default number of participants.
  static let defaultParticipants = 4
  /// The seconds between two participants' starts on the track, at most.
  static let startSpacingSeconds = 2.0

  /// - Throws: `InputError` for an unreadable track or one too short for the replay.
  static func run(settings: BenchSettings, participants: Int = defaultParticipants) throws
    -> Result
  {
    let folder = settings.folder + "/B4"
    try FileIO.createDirectory(folder)
    let track = URL(fileURLWithPath: settings.trackPath).standardizedFileURL.path
    let duration = Double(settings.frames - 1) / 30
    let scenePath = folder + "/collab-bench.json"
    // Starts 2 s apart, or as far apart as the track allows the last one.
    let poses = try CameraTrack.read(path: track, options: TrackReadOptions(format: .arkit)).poses
    let trackSeconds = (poses.last?.timeSeconds ?? 0) - (poses.first?.timeSeconds ?? 0)
    let spacing =
      participants > 1
      ? min(Self.startSpacingSeconds, max(0, trackSeconds - duration) / Double(participants - 1))
      : 0
    try FileIO.writeAtomically(
      Array(
        sceneJSON(
          track: track, duration: duration, participants: participants, spacing: spacing
        ).utf8), to: scenePath)
    let scene = try ReplayScene.load(path: scenePath, registry: .builtIn)
    var options = ReplayOptions(outputDirectory: folder + "/views", threads: settings.threads)
    options.pipelined = settings.pipelined
    options.instructionSet = settings.instructionSet
    let clock = ContinuousClock()
    var start = clock.now
    var cpuStart = Bench.processCPUSeconds()
    _ = try MultiViewReplay(scene: scene).run(options)
    let multi = clock.now - start
    let multiCPU = Bench.processCPUSeconds() - cpuStart

    // The baseline: each view's traced content as plain nodes, one single-view run per view.
    var singleTime = Duration.zero
    var singleCPU = 0.0
    for (index, name) in scene.viewNames.enumerated() {
      let trace = try String(contentsOfFile: folder + "/views/\(name)/trace.jsonl", encoding: .utf8)
      let frames = try trace.split(separator: "\n").map(TracedNodes.init(line:))
      var single = try scene.scene(forView: index)
      single.sessions = [
        SceneSession(
          key: "playback",
          configuration: PlaybackConfiguration(frames: frames, schedule: scene.schedule))
      ]
      var singleOptions = options
      singleOptions.outputDirectory = folder + "/single-\(name)"
      start = clock.now
      cpuStart = Bench.processCPUSeconds()
      _ = try Replay(scene: single).run(singleOptions)
      singleTime += clock.now - start
      singleCPU += Bench.processCPUSeconds() - cpuStart
    }
    func seconds(_ d: Duration) -> Double {
      Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
    return Result(
      frames: settings.frames, participants: participants, multiViewSeconds: seconds(multi),
      singleViewSeconds: seconds(singleTime), multiViewCPUSeconds: multiCPU,
      singleViewCPUSeconds: singleCPU,
      instructionSet: Renderer(options: RenderOptions(instructionSet: settings.instructionSet))
        .instructionSet)
  }

  /// The id of participant `i`: A … Z, then A1 … Z1, A2 …
  static func participantID(_ i: Int) -> String {
    let letter = String(UnicodeScalar(UInt8(ascii: "A") + UInt8(i % 26)))
    return i < 26 ? letter : letter + String(i / 26)
  }

  /// The generated scene: `participants` (≥ 2; A and B act) starting `spacing` seconds apart.
  static func sceneJSON(track: String, duration: Double, participants count: Int, spacing: Double)
    -> String
  {
    let participants = (0..<count).map { i in
      // Whole seconds as integers, as the fixed four-participant scene wrote them.
      let seconds = spacing * Double(i)
      let start = seconds == seconds.rounded() && seconds < 1e6 ? "\(Int(seconds))" : "\(seconds)"
      return """
          {"id": "\(participantID(i))", "track": {"path": "\(track)", "format": "arkit"}, "start": \(start),
           "anchor": {"position": [0, -0.6, -1.2]}}
        """
    }.joined(separator: ",\n")
    return """
      {
        "name": "collab-bench",
        "viewport": "landscape",
        "output": {"width": 1280, "height": 720, "fps": 30},
        "duration": \(duration),
        "background": {"gradient": {"top": [0.62, 0.70, 0.78], "bottom": [0.30, 0.30, 0.33]}},
        "collaboration": {
          "seed": 4,
          "network": {"latency": 0.05, "jitter": 0.02},
          "assets": {"rock": {"sphere": {"radius": 0.12}, "color": [0.6, 0.45, 0.3]}},
          "participants": [
      \(participants)
          ],
          "actions": [
            {"t": 0.2, "participant": "A", "add": {"model": "m1", "usdz": "rock", "translation": [0.2, 0.12, 0]}},
            {"t": 0.4, "participant": "B", "add": {"model": "m2", "usdz": "rock", "translation": [-0.2, 0.12, 0.1]}},
            {"t": 0.5, "participant": "A", "select": "m1"},
            {"t": 0.5, "participant": "A", "move": "m1", "path": [{"t": 0.5, "translation": [0.2, 0.12, 0]}, {"t": \(max(1, duration)), "translation": [-0.3, 0.12, -0.3]}]}
          ]
        }
      }
      """
  }
}

/// The geometry nodes of one trace line: (name, kind, world transform, radius, rgba).
struct TracedNodes: Sendable {
  struct Item: Sendable {
    var name: String
    var kind: String
    var worldTransform: Matrix4
    var radius: Double
    var rgba: [Double]
  }
  var items: [Item]

  init(line: Substring) throws {
    guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      let nodes = object["nodes"] as? [[String: Any]]
    else { throw InputError(.badData, InputLocation(file: "trace.jsonl"), "not a trace line") }
    items = nodes.compactMap { node in
      guard let name = node["name"] as? String, let kind = node["kind"] as? String,
        let m = node["worldTransform"] as? [Double], m.count == 16,
        let rgba = node["rgba"] as? [Double], rgba.count == 4
      else { return nil }
      return Item(
        name: name, kind: kind, worldTransform: Matrix4(columnMajor: m),
        radius: node["radius"] as? Double ?? 0, rgba: rgba)
    }
  }
}

/// Replays traced nodes frame by frame (the bench baseline).
struct PlaybackConfiguration: SessionConfiguration {
  var frames: [TracedNodes]
  var schedule: FrameSchedule
  func makeSession(_ setup: SessionSetup) throws -> any Session {
    PlaybackSession(frames: frames, schedule: schedule)
  }
}

final class PlaybackSession: Session {
  let frames: [TracedNodes]
  let schedule: FrameSchedule
  private let holder = Node()
  private var attached = false
  private var next = 0

  init(frames: [TracedNodes], schedule: FrameSchedule) {
    self.frames = frames
    self.schedule = schedule
  }

  func update(_ context: inout TickContext) {
    if !attached {
      context.root.addChildNode(holder)
      attached = true
    }
    guard next < frames.count, schedule.tick(forFrame: next) == context.tick else { return }
    for child in holder.childNodes { child.removeFromParentNode() }
    for item in frames[next].items {
      let c = item.rgba
      let color = Color(red: c[0], green: c[1], blue: c[2], alpha: c[3])
      let node = Node()
      let rigid = RigidTransform(matrix: item.worldTransform)
      node.position = rigid.translation
      node.orientation = rigid.rotation
      switch item.kind {
      case "sphere":
        node.geometry = .sphere(
          radius: item.radius, material: Material(diffuse: color, lightingModel: .lambert))
      case "plane":
        node.geometry = .plane(
          width: 1, height: 1, material: Material(diffuse: color, lightingModel: .constant))
      default:
        node.geometry = .box(
          width: 0.1, height: 0.1, length: 0.1,
          material: Material(diffuse: color, lightingModel: .lambert))
      }
      holder.addChildNode(node)
    }
    next += 1
  }

  func traceFields() -> [(String, JSONValue)] { [] }
}
