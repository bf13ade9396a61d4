import ARFormats
import ARReplay
import ARSession
import ARSupport
import Foundation

/// The live stream benchmark (`arsim bench live`, Documentation/Live.md "Speed"): B1's sphere
/// load (1000 stroke spheres and a displayer riding with the camera, two translucent planes,
/// the ARKit data-logger walk) streamed as I420 to an in-process `arsim receive --no-png`
/// over loopback, paced at `fps` or as fast as possible.
public struct LiveBench {
  /// Settings.
  public struct Settings: Sendable {
    /// Output size in pixels.
    public var width = 1280
    /// Output height in pixels.
    public var height = 720
    /// Output frame rate (the pace).
    public var fps = 60.0
    /// Seconds of replay.
    public var seconds = 60.0
    /// Pace in wall-clock time (false: as fast as possible).
    public var isPaced = true
    /// Render threads (0: all cores).
    public var threads = 0
    /// The camera track (relative: the current folder).
    public var trackPath = "Scenes/Inputs/arkit_datalogger_camera_pose.txt"
    /// Folder for the scene, the sender's outputs and the receiver's (required: `arsim bench
    /// live` makes a private one in `$TMPDIR` unless given `--out`).
    public var folder = ""

    /// Creates default settings (1280 × 720 at 60 frames/s for 60 s, paced).
    public init() {}
  }

  /// What it measured.
  public struct Result: Sendable {
    /// The sender's run.
    public var live: LiveRun.Summary
    /// The receiver's run.
    public var received: FrameReceiver.Summary
    /// Frames the scene produced.
    public var frames: Int
    /// Wall-clock seconds of the replay (after the handshake).
    public var seconds: Double
  }

  /// The settings.
  public var settings: Settings

  /// Creates a bench.
  public init(settings: Settings) { self.settings = settings }

  /// Runs it.
  /// - Throws: `LiveError`, `LocatedError`s (track, output folder; `.usage` for an empty
  ///   `folder`).
  public func run() throws -> Result {
    let s = settings
    guard !s.folder.isEmpty else {
      throw InputError(.usage, InputLocation(file: "."), "the live bench needs an output folder")
    }
    let track =
      s.trackPath.hasPrefix("/")
      ? s.trackPath : FileManager.default.currentDirectoryPath + "/" + s.trackPath
    let frames = Int((s.seconds * s.fps).rounded()) + 1
    // The B1 scene's setting (BenchScene) at another size and rate; the walk is held at its
    // end pose past 46 s (the rig rides with the camera, so the load stays the same).
    let text = """
      {
        "name": "bench-live",
        "track": {"path": \(JSONValue.string(track).text), "format": "arkit", "clamp": true},
        "viewport": "landscape",
        "arFrameRate": \(max(60, s.fps)),
        "output": {"width": \(s.width), "height": \(s.height), "fps": \(s.fps)},
        "frames": \(frames),
        "background": {"gradient": {"top": [0.62, 0.70, 0.78], "bottom": [0.30, 0.30, 0.33]}}
      }
      """
    try FileIO.createDirectory(s.folder)
    let scenePath = s.folder + "/bench-live.json"
    try FileIO.writeAtomically(Array(text.utf8), to: scenePath)
    var scene = try ReplayScene.load(path: scenePath, registry: SessionRegistry())
    scene.sessions.append(BenchScene.b1.rigSession(intrinsics: scene.outputIntrinsics))

    let stop = StopSignal.interrupt
    var receiverOptions = FrameReceiver.Options(
      endpoint: LoopbackEndpoint(port: 0),
      acceptor: BroadcastAcceptor(peerToken: "EXT", myToken: "APP", acceptTimeout: .seconds(10)),
      outputDirectory: s.folder + "/received")
    receiverOptions.writesPNG = false
    receiverOptions.stop = stop
    let options = receiverOptions
    let bound = EndpointHandoff()
    let receiverDone = ResultHandoff<FrameReceiver.Summary>()
    let thread = Thread {
      receiverDone.set(Swift.Result { try FrameReceiver(options: options).run { bound.set($0) } })
    }
    thread.start()
    let endpoint = try bound.wait()
    var runOptions = LiveRun.Options(outputDirectory: s.folder + "/sent")
    runOptions.isPaced = s.isPaced
    runOptions.threads = s.threads
    let sender = BroadcastSender(
      endpoint: endpoint, transmissionToken: "EXT", receptionToken: "APP", stop: stop)
    let start = ContinuousClock.now
    let live = try LiveRun(scene: scene, options: runOptions).run(sender: sender)
    let seconds = (ContinuousClock.now - start).seconds
    let received = try receiverDone.wait().get()
    return Result(live: live, received: received, frames: frames, seconds: seconds)
  }
}

/// Hands a bound endpoint from the receiver's thread to the bench (≤ 10 s).
final class EndpointHandoff: @unchecked Sendable {
  private let condition = NSCondition()
  private var value: LoopbackEndpoint?

  func set(_ endpoint: LoopbackEndpoint) {
    condition.lock()
    value = endpoint
    condition.broadcast()
    condition.unlock()
  }

  func wait() throws(LiveError) -> LoopbackEndpoint {
    condition.lock()
    defer { condition.unlock() }
    let deadline = Date(timeIntervalSinceNow: 10)
    while value == nil, condition.wait(until: deadline) {}
    guard let value else { throw LiveError(.timedOut, "the bench's receiver did not listen") }
    return value
  }
}

/// Hands a thread's result over (waits without limit: the receiver's own waits are bounded).
final class ResultHandoff<T: Sendable>: @unchecked Sendable {
  private let condition = NSCondition()
  private var value: Swift.Result<T, any Error>?

  func set(_ result: Swift.Result<T, any Error>) {
    condition.lock()
    value = result
    condition.broadcast()
    condition.unlock()
  }

  func wait() -> Swift.Result<T, any Error> {
    condition.lock()
    defer { condition.unlock() }
    while value == nil { condition.wait() }
    return value ?? .failure(LiveError(.system, "no result"))
  }
}
