import ARFormats
import ARMath
import ARRemoteAssist
import ARScene
import ARSession

/// `arsim bench S1`: a dense stroke log, 10⁶ `touch-end` messages within 2 s (the size issue 22
/// found replaying in quadratic time), delivered by the remote-assist session tick by tick at
/// 60 Hz with nothing rendered. Prints the wall time, messages per second and the rate check's
/// work per message, so a return of per-message work that grows with the log shows as a ratio.
enum StrokeLogBench {
  struct Result {
    var messages: Int
    var ticks: Int
    var seconds: Double
    var rateCheckOperationsPerMessage: Double
    var warnings: Int
  }

  static func run(messages count: Int = 1_000_000, spanSeconds: Double = 2) -> Result {
    let messages = (0..<count).map {
      StrokeMessage(t: Double($0) * spanSeconds / Double(count), text: "touch-end")
    }
    let session = RemoteAssistSession(messages: messages)
    let root = Node(name: "world")
    let pointOfView = Node(name: "pointOfView")
    root.addChildNode(pointOfView)
    let camera = Camera(intrinsics: .defaultCapture, worldFromCamera: .identity)
    let ticks = Int((spanSeconds * 60).rounded(.up)) + 1
    var warnings = 0
    let clock = ContinuousClock()
    let start = clock.now
    for tick in 0..<ticks {
      let t = Double(tick) / 60
      var context = TickContext(
        tick: tick, t: t, microseconds: Int64((t * 1e6).rounded()), camera: camera,
        pointOfView: pointOfView, root: root)
      session.update(&context)
      warnings += context.events.count { $0.name == "warning" }
    }
    let (s, attoseconds) = (clock.now - start).components
    return Result(
      messages: count, ticks: ticks, seconds: Double(s) + Double(attoseconds) * 1e-18,
      rateCheckOperationsPerMessage: Double(session.rateCheckOperations) / Double(count),
      warnings: warnings)
  }
}
