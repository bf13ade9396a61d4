import ARFormats
import ARMath
import ARRender
import ARScene
import ARSession
import ARSupport
import Foundation

/// The standard synthetic benchmark scenes of `arsim bench` (Documentation/Performance.md).
///
/// Every scene replays the ARKit data-logger walk (landscape, default capture intrinsics,
/// 30 frames/s, DESIGN §3 default lights, a vertical gradient background) with two translucent
/// plane anchors (a floor 1.4 m below the first pose and a wall 2.5 m ahead of it) and a
/// "stroke rig": stroke spheres (radius 0.015 under the remote-assist app's root scale 1.25,
/// i.e. 0.01875 m in the world; blinn, shininess 24, specular 0.35) plus a displayer (the
/// video app's 22.5 × 40 × 1 cm box with its constant-lit screen). The rig rides with the
/// camera, as if the helper kept redrawing in front of the phone, so every frame has the same
/// load however far the walk goes: all spheres lie inside the image at depths
/// `depthRange` (B1: 1.0…1.4 m, i.e. projected radii fx · 0.01875 / depth ≥ 21.4 px).
/// The layout comes from a seeded SplitMix64 generator, so it is identical on every machine.
public enum BenchScene: String, CaseIterable, Sendable {
  /// 1920×1440, 1000 spheres, PNG output.
  case b1 = "B1"
  /// 1280×720, 10 000 spheres, PNG output.
  case b2 = "B2"
  /// B1 without output files (raster only).
  case b3 = "B3"
  /// B1 in front of an environment of 100 486 triangles, 100 376 textured (`environmentMember`).
  case b5 = "B5"
  /// B1 over a distinct 1920×1440 JPEG camera image per frame (`cameraImagesMember`).
  case b6 = "B6"

  /// Output width and height in pixels.
  public var size: (width: Int, height: Int) { self == .b2 ? (1280, 720) : (1920, 1440) }
  /// Stroke spheres in the rig.
  public var sphereCount: Int { self == .b2 ? 10_000 : 1000 }
  /// Whether frames are encoded and written.
  public var writesFrames: Bool { self != .b3 }
  /// Depths (metres along the camera's −Z) of the strokes.
  var depthRange: ClosedRange<Double> { 1.0...1.4 }

  /// World radius of a stroke sphere (metres): the app's 0.015 × root scale 1.25.
  public static let sphereWorldRadius = 0.015 * 1.25

  /// Writes the scene file into `folder` and loads it.
  /// - Parameters:
  ///   - trackPath: the ARKit data-logger track (`Scenes/Inputs/arkit_datalogger_camera_pose.txt`).
  ///   - frames: output frames (300 by default in `arsim bench`).
  ///   - supersampling: N for N×N samples per pixel.
  ///   - png: `fast` or `small`.
  ///   - size: output pixels instead of `size` (`arsim bench --size`).
  /// - Throws: `LocatedError`s from loading the track or scene.
  public func makeScene(
    trackPath: String, frames: Int, supersampling: Int, png: String, folder: String,
    size: (width: Int, height: Int)? = nil
  ) throws -> ReplayScene {
    let absoluteTrack =
      trackPath.hasPrefix("/")
      ? trackPath : FileManager.default.currentDirectoryPath + "/" + trackPath
    // Read as the scene reads it (ARKit data logger): bench has no --format to name.
    let track = try CameraTrack.read(path: absoluteTrack, options: TrackReadOptions(format: .arkit))
    // Output frame i is at i / 30 s (DESIGN §4): say here what the track allows, rather than
    // fail on the generated scene file's `frames` field.
    let seconds = track.endSeconds - track.startSeconds
    let maximumFrames = Int((seconds * 30).rounded(.down)) + 1
    guard frames <= maximumFrames else {
      throw InputError(
        .badData, InputLocation(file: trackPath),
        "lasts \(seconds) s, enough for \(maximumFrames) benchmark frames at 30 frames/s, not "
          + "\(frames): pass fewer --frames or a longer --track")
    }
    let first = track.poses.first?.worldFromCamera ?? .identity
    let p = first.translation
    let (width, height) = size ?? self.size
    let text = """
      {
        "name": "bench-\(rawValue)",
        "track": {"path": \(JSONValue.string(absoluteTrack).text), "format": "arkit"},
        "viewport": "landscape",
        "output": {"width": \(width), "height": \(height), "fps": 30,
                   "supersampling": \(supersampling), "png": "\(png)"},
        "frames": \(frames),
        "background": {"gradient": {"top": [0.62, 0.70, 0.78], "bottom": [0.30, 0.30, 0.33]}\(
          try cameraImagesMember(
            folder: folder, frames: frames, firstTime: track.poses.first?.timeSeconds ?? 0))},
        "planes": [
          {"id": "floor", "position": [\(p.x), \(p.y - 1.4), \(p.z)], "extent": [6, 6],
           "visualization": "translucent"},
          {"id": "wall", "position": [\(p.x), \(p.y), \(p.z - 2.5)], "extent": [4, 3],
           "eulerAngles": [1.5707963267948966, 0, 0], "alignment": "vertical",
           "visualization": "translucent"}
        ]\(try environmentMember(origin: SIMD3(p.x, p.y, p.z), folder: folder))
      }
      """
    try FileIO.createDirectory(folder)
    let path = folder + "/bench-\(rawValue).json"
    try FileIO.writeAtomically(Array(text.utf8), to: path)
    return try ReplayScene.load(path: path, registry: SessionRegistry())  // the rig is no kind
  }

  /// The rig's layout for output intrinsics `intrinsics`: `sphereCount` spheres (default the
  /// scene's).
  func layout(intrinsics k: CameraIntrinsics, sphereCount: Int? = nil) -> BenchLayout {
    var random = SplitMix64(seed: self == .b2 ? 0xB2 : 0xB1)
    func uniform(_ range: ClosedRange<Double>) -> Double {
      range.lowerBound + Double(random.next() >> 11) / Double(1 << 53)
        * (range.upperBound - range.lowerBound)
    }
    let spheresPerStroke = 50
    var strokes: [BenchLayout.Stroke] = []
    var remaining = sphereCount ?? self.sphereCount
    // Screen-space strokes: wavy lines stepping 0.8 projected radii, reflected at a margin of
    // 1.5 radii so every sphere lies wholly inside the image (in an image too small for that
    // margin, `--size 1x1`, the strokes keep to its middle row or column instead).
    while remaining > 0 {
      let count = min(spheresPerStroke, remaining)
      remaining -= count
      let depth = uniform(depthRange)
      let radiusPixels = k.fx * Self.sphereWorldRadius / depth
      let margin = 1.5 * radiusPixels
      let uMargin = min(margin, (Double(k.width) - 1) / 2)
      let vMargin = min(margin, (Double(k.height) - 1) / 2)
      let uRange = uMargin...(Double(k.width) - 1 - uMargin)
      let vRange = vMargin...(Double(k.height) - 1 - vMargin)
      var u = uniform(uRange)
      var v = uniform(vRange)
      var heading = uniform(0...(2 * Double.pi))
      let turn = uniform(-0.15...0.15)
      var points: [SIMD2<Double>] = []
      for _ in 0..<count {
        points.append(SIMD2(u, v))
        heading += turn
        u += cos(heading) * 0.8 * radiusPixels
        v += sin(heading) * 0.8 * radiusPixels
        if !uRange.contains(u) {
          u = min(max(u, uRange.lowerBound), uRange.upperBound)
          heading = Double.pi - heading
        }
        if !vRange.contains(v) {
          v = min(max(v, vRange.lowerBound), vRange.upperBound)
          heading = -heading
        }
      }
      // Camera space at `depth`: x = (u − cx)/fx · depth, y = −(v − cy)/fy · depth.
      let positions = points.map {
        SIMD3(($0.x - k.cx) / k.fx * depth, -($0.y - k.cy) / k.fy * depth, -depth)
      }
      let palette: [SIMD3<Double>] = [
        SIMD3(0, 122.0 / 255, 1), SIMD3(1, 59.0 / 255, 48.0 / 255),
        SIMD3(52.0 / 255, 199.0 / 255, 89.0 / 255), SIMD3(1, 204.0 / 255, 0),
      ]
      strokes.append(
        BenchLayout.Stroke(
          depth: depth, color: palette[strokes.count % palette.count], cameraPositions: positions))
    }
    return BenchLayout(strokes: strokes)
  }
}

/// Camera-space positions of the rig's stroke spheres.
struct BenchLayout: Sendable {
  struct Stroke: Sendable {
    var depth: Double
    var color: SIMD3<Double>
    /// Sphere centres in camera space (metres).
    var cameraPositions: [SIMD3<Double>]
  }
  var strokes: [Stroke]
}

/// The session that carries the stroke rig: on every AR tick the rig node takes the camera's
/// pose (so its content stays put in the image); it records the camera of each tick for the
/// load statistics.
final class BenchRigSession: Session {
  let layout: BenchLayout
  let rig = Node(name: "bench-rig")
  private var attached = false
  /// The camera of every tick, in order.
  private(set) var cameras: [Camera] = []

  init(layout: BenchLayout) {
    self.layout = layout
    for (index, stroke) in layout.strokes.enumerated() {
      // As the remote-assist app: a root 1.25× scaled facing the camera, sphere children of
      // radius 0.015 at local (x, y, 0).
      let root = Node(name: "stroke-\(index)")
      root.position = Vector3(0, 0, -stroke.depth)
      root.scale = Vector3(1.25, 1.25, 1.25)
      let material = Material(
        diffuse: Color(red: stroke.color.x, green: stroke.color.y, blue: stroke.color.z),
        specular: Color(red: 0.35, green: 0.35, blue: 0.35), shininess: 24,
        lightingModel: .blinn)
      for p in stroke.cameraPositions {
        let sphere = Node(geometry: .sphere(radius: 0.015, material: material))
        sphere.position = Vector3(p.x / 1.25, p.y / 1.25, 0)
        root.addChildNode(sphere)
      }
      rig.addChildNode(root)
    }
    // The displayer: box 22.5 × 40 × 1 cm, screen 6 mm in front, lower right at 1.6 m.
    let displayer = Node(name: "displayer")
    displayer.position = Vector3(0.35, -0.2, -1.6)
    displayer.orientation = Quaternion(axis: Vector3(0, 1, 0), angleRadians: -0.3)
    displayer.geometry = .box(
      width: 0.225, height: 0.4, length: 0.01,
      material: Material(diffuse: Color(red: 0.2, green: 0.2, blue: 0.2)))
    let screen = Node(
      geometry: .plane(
        width: 0.225, height: 0.4,
        material: Material(
          diffuse: Color(red: 0.3, green: 0.85, blue: 0.95), lightingModel: .constant)))
    screen.position = Vector3(0, 0, 0.006)
    displayer.addChildNode(screen)
    rig.addChildNode(displayer)
  }

  func update(_ context: inout TickContext) {
    if !attached {
      context.root.addChildNode(rig)
      attached = true
    }
    rig.position = context.camera.worldFromCamera.translation
    rig.orientation = context.camera.worldFromCamera.rotation
    cameras.append(context.camera)
  }

  func traceFields() -> [(String, JSONValue)] { [] }
}
