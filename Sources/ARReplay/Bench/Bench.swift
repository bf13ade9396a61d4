import ARCameraImages
import ARFormats
import ARMath
import ARRender
import ARScene
import ARSession
import ARSupport
import Foundation

/// Settings of one benchmark run.
public struct BenchSettings: Sendable {
  /// The camera track (relative paths: the current directory).
  public var trackPath: String = "Scenes/Inputs/arkit_datalogger_camera_pose.txt"
  /// Output frames.
  public var frames: Int = 300
  /// Render threads (0 = all cores).
  public var threads: Int = 0
  /// N×N supersampling.
  public var supersampling: Int = 1
  /// `fast` or `small` PNG preset.
  public var png: String = "fast"
  /// Encode on other threads while the next frame renders.
  public var pipelined: Bool = true
  /// Which build of the rasterizer runs.
  public var instructionSet: InstructionSet = .automatic
  /// Output size in pixels instead of the scene's (`arsim bench --size WxH`); the rig is laid
  /// out for it, so every sphere stays in view.
  public var size: (width: Int, height: Int)? = nil
  /// Stroke spheres instead of the scene's (`--spheres N`), laid out as the scene's are.
  public var sphereCount: Int? = nil
  /// Folder for the scene file and the frames (emptied of nothing; frames overwrite).
  public var folder: String

  /// Creates settings writing into `folder`.
  public init(folder: String) { self.folder = folder }
}

/// What one benchmark measured.
public struct BenchResult: Sendable {
  /// The scene.
  public var scene: BenchScene
  /// Frames rendered.
  public var frames: Int
  /// Median milliseconds per frame of each stage: sceneUpdate, render, traceLine (scene
  /// thread), encode, write (encoder threads).
  public var medianMilliseconds: [(String, Double)]
  /// Median milliseconds per frame of the pipeline's waits: submitWait (scene thread blocked,
  /// every encoder slot taken), encodeQueueWait (handed over → encoding starts), commitWait
  /// (encoded → its turn to commit).
  public var medianWaitMilliseconds: [(String, Double)]
  /// CPU seconds (user + system, all threads) the run used; divided by `totalSeconds`: the
  /// cores kept busy on average.
  public var cpuSeconds: Double
  /// Wall-clock seconds of the whole run (after loading), and frames per second.
  public var totalSeconds: Double
  /// End-to-end frames per second.
  public var framesPerSecond: Double
  /// Render and encoder threads.
  public var renderThreads: Int
  /// PNG encoder threads (0 when frames are not written).
  public var encoderThreads: Int
  /// The rasterizer build that ran.
  public var instructionSet: InstructionSet
  /// Load check: stroke spheres whose centre projects inside the image, mean and minimum over
  /// the frames; their projected radius fx · R / depth (pixels), mean and minimum.
  public var meanSpheresInView: Double
  /// Fewest stroke spheres in view on any frame.
  public var minSpheresInView: Int
  /// Mean projected sphere radius, pixels.
  public var meanProjectedRadius: Double
  /// Smallest projected sphere radius, pixels.
  public var minProjectedRadius: Double
  /// Mean PNG file size (bytes) of the written frames (0 for B3).
  public var meanPNGBytes: Double
  /// The process's peak resident memory so far (VmHWM), bytes.
  public var peakResidentBytes: Int
  /// B6: what decoding the camera images cost (nil for the other scenes).
  public var cameraImages: CameraImageTimings? = nil
}

/// Runs the benchmark scenes (Documentation/Performance.md).
public enum Bench {
  /// Generates `scene`, replays it through the normal frame loop and measures it.
  /// - Throws: `LocatedError`s from loading the track or writing the output.
  public static func run(_ scene: BenchScene, settings: BenchSettings) throws -> BenchResult {
    let folder = settings.folder + "/" + scene.rawValue
    let replayScene = try scene.makeScene(
      trackPath: settings.trackPath, frames: settings.frames,
      supersampling: settings.supersampling, png: settings.png, folder: settings.folder,
      size: settings.size)
    let layout = scene.layout(
      intrinsics: replayScene.outputIntrinsics, sphereCount: settings.sphereCount)
    let rig = BenchRigSession(layout: layout)
    let holder = SessionHolder(rig)
    var options = ReplayOptions(outputDirectory: folder, threads: settings.threads)
    options.pipelined = settings.pipelined
    options.instructionSet = settings.instructionSet
    options.writesFrames = scene.writesFrames
    options.extraSessions = { @Sendable in [holder.session] }
    let cpuBefore = processCPUSeconds()
    let summary = try Replay(scene: replayScene).run(options)
    let cpuSeconds = processCPUSeconds() - cpuBefore

    let timings = summary.frameTimings
    func median(_ values: [Duration]) -> Double {
      let sorted = values.map { Replay.seconds($0) * 1000 }.sorted()
      guard !sorted.isEmpty else { return 0 }
      let n = sorted.count
      return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }
    let medians = [
      ("sceneUpdate", median(timings.map(\.sceneUpdate))),
      ("render", median(timings.map(\.render))),
      ("traceLine", median(timings.map(\.traceLine))),
      ("encode", median(timings.map(\.encode))),
      ("write", median(timings.map(\.write))),
    ]
    let waits = [
      ("submitWait", median(timings.map(\.submitWait))),
      ("encodeQueueWait", median(timings.map(\.encodeQueueWait))),
      ("commitWait", median(timings.map(\.commitWait))),
    ]

    // Load statistics from the camera of each output frame.
    let k = replayScene.outputIntrinsics
    var counts: [Int] = []
    var radiusSum = 0.0
    var radiusCount = 0
    var minRadius = Double.infinity
    for frame in 0..<settings.frames {
      let tick = replayScene.schedule.tick(forFrame: frame)
      guard tick < rig.cameras.count else { continue }
      let camera = rig.cameras[tick]
      var count = 0
      for stroke in layout.strokes {
        for p in stroke.cameraPositions {
          let world = camera.worldFromCamera.transformPoint(Vector3(p.x, p.y, p.z))
          guard let (u, v, depth) = camera.project(world: world), depth > camera.near,
            u >= -0.5, u <= Double(k.width) - 0.5, v >= -0.5, v <= Double(k.height) - 0.5
          else { continue }
          count += 1
          let radius = k.fx * BenchScene.sphereWorldRadius / depth
          radiusSum += radius
          radiusCount += 1
          minRadius = min(minRadius, radius)
        }
      }
      counts.append(count)
    }
    var pngBytes = 0
    for frame in summary.framesWritten {
      let path = folder + "/frame_" + String(format: "%05d", frame) + ".png"
      let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
      pngBytes += size ?? 0
    }
    var result = BenchResult(
      scene: scene, frames: timings.count, medianMilliseconds: medians,
      medianWaitMilliseconds: waits, cpuSeconds: cpuSeconds, totalSeconds: summary.totalSeconds,
      framesPerSecond: Double(timings.count) / max(summary.totalSeconds, 1e-9),
      renderThreads: summary.renderThreads, encoderThreads: summary.encoderThreads,
      instructionSet: summary.instructionSet,
      meanSpheresInView: counts.isEmpty
        ? 0 : Double(counts.reduce(0, +)) / Double(counts.count),
      minSpheresInView: counts.min() ?? 0,
      meanProjectedRadius: radiusCount == 0 ? 0 : radiusSum / Double(radiusCount),
      minProjectedRadius: minRadius.isFinite ? minRadius : 0,
      meanPNGBytes: summary.framesWritten.isEmpty
        ? 0 : Double(pngBytes) / Double(summary.framesWritten.count),
      peakResidentBytes: peakResidentBytes())
    result.cameraImages = summary.cameraImages
    return result
  }

  /// User + system CPU seconds of the whole process so far (`getrusage`).
  public static func processCPUSeconds() -> Double {
    var usage = rusage()
    guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) * 1e-6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
  }

  /// VmHWM from /proc/self/status (Linux), bytes; 0 when unavailable.
  public static func peakResidentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return 0
    }
    for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      let digits = line.filter(\.isNumber)
      return (Int(digits) ?? 0) * 1024
    }
    return 0
  }
}

/// Hands the rig (a class, used on the scene thread only) to `ReplayOptions.extraSessions`.
private final class SessionHolder: @unchecked Sendable {
  let session: BenchRigSession
  init(_ session: BenchRigSession) { self.session = session }
}
