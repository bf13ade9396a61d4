import ARHeadsUpDisplay
import ARMeasure
import ARRender
import ARReplay
import ARScene
import ARSession
import ARSimCLI
import ARSimTesting
import ARTestSupport
import ARText
import Foundation
import Testing

/// The HUD over real replays. Goldens are crops of 640×480 frames (text at the size a user
/// sees; a whole frame is over the 256 px golden limit). They depend on FreeType and the
/// font: `__Goldens__/HeadsUpDisplayTests/versions.txt` records the versions they were made
/// with. With those versions the comparison is exact (FreeType is deterministic); with others
/// it is perceptual (pixelmatch threshold 0.1, at most 2 % of the crop's pixels differing):
/// unhinted outlines move by at most a level or two of anti-aliasing between releases, while
/// a wrong line, a missing word or a moved block changes far more than 2 %.
@Suite struct HeadsUpDisplayTests {
  static func font() throws -> FontFace {
    try FontFace(
      path: FontLocator.fontPath(
        environment: ProcessInfo.processInfo.environment,
        exists: { FileManager.default.fileExists(atPath: $0) }))
  }

  /// Frame `frame` of a bundled scene at its own size, with and without the HUD.
  static func frames(_ scene: String, frame: Int) throws -> (plain: Image, hud: Image) {
    let loaded = try ReplayScene.load(
      path: Fixtures.repository + "/Scenes/\(scene).json", registry: .builtIn)
    let folder = TemporaryFolder("hud").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var plain = ReplayOptions(
      outputDirectory: folder + "/plain", frameRange: frame...frame, threads: 2)
    plain.pipelined = false
    _ = try Replay(scene: loaded).run(plain)
    var hud = plain
    hud.outputDirectory = folder + "/hud"
    hud.overlay = HeadsUpDisplay(font: try font())
    _ = try Replay(scene: loaded).run(hud)
    let name = "/frame_" + String(format: "%05d", frame) + ".png"
    return (
      try Image(contentsOfPNG: folder + "/plain" + name),
      try Image(contentsOfPNG: folder + "/hud" + name)
    )
  }

  static func crop(_ image: Image, x: Int, y: Int, width: Int, height: Int) -> Image {
    var out = Image(width: width, height: height)
    for v in 0..<height {
      for u in 0..<width { out[u, v] = image[x + u, y + v] }
    }
    return out
  }

  static var tolerance: GoldenTolerance {
    let recorded =
      (try? String(
        contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
          + "/__Goldens__/HeadsUpDisplayTests/versions.txt", encoding: .utf8)) ?? ""
    guard let font = try? font() else { return .exact }
    let current = "FreeType \(font.freeTypeVersion)\nDejaVu Sans \(font.fontVersion)\n"
    if current == recorded { return .exact }
    print("HUD goldens: recorded with \(recorded), running \(current): perceptual comparison")
    return .perceptualFraction(threshold: 0.1, maxDifferingFraction: 0.02)
  }

  /// Rectangles the HUD may touch in a 640×480 frame: the measure text view band (90 pt ×
  /// 480/390 px/pt = 111 px) and the corner label.
  static func insideHUD(u: Int, v: Int, band: Bool) -> Bool {
    (band && v < 111) || (u >= 440 && v >= 440)
  }

  @Test("tum-measure: the app's three status lines in its text view, and the replay time")
  func measureGoldens() throws {
    let (plain, hud) = try Self.frames("tum-measure", frame: 120)
    assertGolden(
      Self.crop(hud, x: 0, y: 0, width: 256, height: 112), named: "tum-measure-120-status",
      tolerance: Self.tolerance)
    assertGolden(
      Self.crop(hud, x: 440, y: 440, width: 200, height: 40), named: "tum-measure-120-time",
      tolerance: Self.tolerance)
    // Outside the HUD the frame is the rasterizer's, byte for byte.
    var outside = 0
    for v in 0..<480 {
      for u in 0..<640 where !Self.insideHUD(u: u, v: v, band: true) {
        if plain[u, v] != hud[u, v] { outside += 1 }
      }
    }
    #expect(outside == 0)
    // In the band, away from the text, white at 50 %: a = 128, so each channel is
    // (255 · 128 + old · 127 + 127) / 255 (Image+Text's rule, computed here by hand).
    for (u, v) in [(600, 5), (630, 100), (320, 2)] {
      let old = plain[u, v]
      func expected(_ c: UInt8) -> UInt8 {
        let blended: Int = (255 * 128 + Int(c) * 127 + 127) / 255
        return UInt8(blended)
      }
      let pixel = hud[u, v]
      #expect(pixel.r == expected(old.r))
      #expect(pixel.g == expected(old.g))
      #expect(pixel.b == expected(old.b))
      #expect(pixel.a == 255)
    }
  }

  @Test("apps that show nothing get nothing but ARSim's replay-time corner")
  func remoteAssistShowsNothing() throws {
    let (plain, hud) = try Self.frames("tum-house-undo", frame: 150)
    var outside = 0
    var inside = 0
    for v in 0..<480 {
      for u in 0..<640 where plain[u, v] != hud[u, v] {
        if Self.insideHUD(u: u, v: v, band: false) { inside += 1 } else { outside += 1 }
      }
    }
    #expect(outside == 0)
    #expect(inside > 200)  // the corner label is there
  }

  @Test("a name tag at a point is centred on it (participant names over peers)")
  func nameTag() throws {
    var rendered = RenderedFrame(
      image: Image(width: 200, height: 100, fill: (100, 100, 100, 255)), depth: nil)
    var display = HeadsUpDisplay(font: try Self.font())
    display.showsReplayTime = false
    display.draw(
      [OverlayText(source: "test", lines: ["alice"], placement: .point(u: 120, v: 40))],
      on: &rendered, frame: 0, t: 0)
    var minU = 200
    var maxU = -1
    var minV = 100
    var maxV = -1
    for v in 0..<100 {
      for u in 0..<200 where rendered.image[u, v].r != 100 {
        minU = min(minU, u)
        maxU = max(maxU, u)
        minV = min(minV, v)
        maxV = max(maxV, v)
      }
    }
    // The tag's box (its dark background changes the pixels too) is centred on (120, 40).
    let centreU = Double(minU + maxU) / 2
    let centreV = Double(minV + maxV) / 2
    #expect(abs(centreU - 120) <= 1.5)
    #expect(abs(centreV - 40) <= 1.5)
  }

  @Test("the tracking line follows the tick's state, empty before the first and when relocalizing")
  func trackingStates() throws {
    let session = try MeasureSession(switchTimes: [])
    let expected: [(Double, TrackingState?, String)] = [
      (0, nil, "Tracking: "), (0.5, .limited(.initializing), "Tracking: INITIALIZING"),
      (1.5, .limited(.excessiveMotion), "Tracking: TRACKING LIMITED - Too much camera movement"),
      (
        1.7, .limited(.insufficientFeatures),
        "Tracking: TRACKING LIMITED - Not enough surface detail"
      ),
      (1.8, .limited(.relocalizing), "Tracking: "),
      (1.9, .notAvailable, "Tracking: TRACKING UNAVAILABLE"),
      (2.0, .normal, "Tracking: TRACKING NORMAL"),
    ]
    let camera = Camera(
      intrinsics: CameraIntrinsics(fx: 500, fy: 500, cx: 319.5, cy: 239.5, width: 640, height: 480),
      worldFromCamera: .identity)
    let root = Node()
    for (t, state, line) in expected {
      var context = TickContext(
        tick: Int(t * 60), t: t, microseconds: Int64(t * 1e6), camera: camera,
        pointOfView: Node(), root: root, planes: [])
      context.trackingState = state
      session.update(&context)
      let lines = session.overlayText().first?.lines ?? []
      #expect(lines == ["Status: NOT READY", line, "Distance: 0.00 cm"])
    }
  }

  @Test("measure.tracking: a name for the whole run, or changes; unknown names are errors")
  func trackingInSceneFile() throws {
    let folder = TemporaryFolder("tracking").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let track = Fixtures.repository + "/Scenes/Inputs/tum_fr1_xyz_groundtruth.txt"
    func scene(_ tracking: String) -> String {
      """
      {"name": "t", "track": {"path": "\(track)", "format": "tum"},
       "output": {"width": 64, "height": 48, "fps": 30}, "duration": 1,
       "measure": {"switchTimes": [], "tracking": \(tracking)}}
      """
    }
    try scene("\"limitedInsufficientFeatures\"").write(
      toFile: folder + "/a.json", atomically: true, encoding: .utf8)
    _ = try ReplayScene.load(path: folder + "/a.json", registry: .builtIn)
    try scene(#"[{"t": 0, "state": "initializing"}, {"t": 0.5, "state": "normal"}]"#).write(
      toFile: folder + "/b.json", atomically: true, encoding: .utf8)
    _ = try ReplayScene.load(path: folder + "/b.json", registry: .builtIn)
    try scene(#"[{"t": 0, "state": "lost"}]"#).write(
      toFile: folder + "/c.json", atomically: true, encoding: .utf8)
    #expect {
      _ = try ReplayScene.load(path: folder + "/c.json", registry: .builtIn)
    } throws: { error in
      "\(error)".contains("measure.tracking[0].state") && "\(error)".contains("'lost'")
    }
    try scene(#"[{"t": 1, "state": "normal"}, {"t": 0.5, "state": "normal"}]"#).write(
      toFile: folder + "/d.json", atomically: true, encoding: .utf8)
    #expect {
      _ = try ReplayScene.load(path: folder + "/d.json", registry: .builtIn)
    } throws: { error in "\(error)".contains("tracking[1].t is earlier") }
  }
}

/// Records the texts the frame loop hands over, then draws them with the HUD.
final class RecordingOverlay: FrameOverlay, @unchecked Sendable {
  let display: HeadsUpDisplay
  private let lock = NSLock()
  private var recorded: [(frame: Int, texts: [OverlayText])] = []

  init(_ display: HeadsUpDisplay) { self.display = display }

  func draw(_ texts: [OverlayText], on rendered: inout RenderedFrame, frame: Int, t: Double) {
    lock.withLock { recorded.append((frame, texts)) }
    display.draw(texts, on: &rendered, frame: frame, t: t)
  }

  var all: [(frame: Int, texts: [OverlayText])] { lock.withLock { recorded } }
}

@Suite struct CollaborationNameTagTests {
  @Test("collab-three, view C at 5 s: B's name over B's peer sphere, drawn in the frame")
  func peerNames() throws {
    let scene = try ReplayScene.load(
      path: Fixtures.repository + "/Scenes/collab-three.json", registry: .builtIn)
    let folder = TemporaryFolder("collab-hud").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var options = ReplayOptions(
      outputDirectory: folder + "/plain", frameRange: 150...150, threads: 2)
    _ = try MultiViewReplay(scene: scene).run(options, only: ["C"])
    let overlay = RecordingOverlay(HeadsUpDisplay(font: try HeadsUpDisplayTests.font()))
    options.outputDirectory = folder + "/hud"
    options.overlay = overlay
    _ = try MultiViewReplay(scene: scene).run(options, only: ["C"])
    let texts = try #require(overlay.all.first { $0.frame == 150 }?.texts)
    let tags = texts.filter { $0.source == "collaboration" }
    // Only other participants are tagged, each at most once.
    #expect(tags.allSatisfy { ["A", "B"].contains($0.lines.first ?? "") })
    #expect(Set(tags.map(\.lines)).count == tags.count)
    let tag = try #require(tags.first { $0.lines == ["B"] })
    guard case .point(let u, let v) = tag.placement else {
      Issue.record("a name tag sits at a point")
      return
    }
    let plain = try Image(contentsOfPNG: folder + "/plain/C/frame_00150.png")
    let hud = try Image(contentsOfPNG: folder + "/hud/C/frame_00150.png")
    #expect(u >= 0 && u < Double(plain.width) && v >= 0 && v < Double(plain.height))
    // The label is drawn there (its dark box changes the pixel at its centre), and B's sphere
    // (colour [0.2, 0.5, 1.0], lit: blue − red ≈ 100) lies below it, not the background's
    // grey-blue gradient (blue − red ≈ 35 there).
    let centre = (Int(u.rounded()), Int(v.rounded()))
    #expect(plain[centre.0, centre.1] != hud[centre.0, centre.1])
    let below = (10..<60).contains { dy in
      let y = min(plain.height - 1, centre.1 + dy)
      let p = plain[centre.0, y]
      return Int(p.b) - Int(p.r) > 70
    }
    #expect(below)
  }
}
