import AREnvironment
import ARFormats
import ARMath
import ARRender
import ARScene
import ARSession
import ARSupport
import ARTracking
import Foundation

extension ReplayScene {
  /// Loads a scene file and everything it references (paths relative to the scene's folder).
  /// Each kind in `registry` whose key the file has decodes and checks its own section, in
  /// registration order, after the common part.
  /// - Throws: `InputError`/`LocatedError` with `.missingInput` for missing files and
  ///   `.badData` naming the scene file and field (e.g. `output.fps`) for invalid values (a
  ///   `background.recording.video` is probed with ffprobe here: `VideoFrameSource.probe`);
  ///   `CameraVideoError` when ffprobe or ffmpeg is missing or ffprobe fails.
  public static func load(path: String, registry: SessionRegistry) throws -> ReplayScene {
    do {
      let (file, sections, fileWarnings) = try SceneFile.read(path: path, registry: registry)
      var resolver = SceneResolver(path: path)
      var scene = try resolver.resolve(file, sections: sections)
      scene.warnings = fileWarnings + scene.warnings
      return scene
    } catch var error as InputError
      where error.location.file == path && error.location.line == nil
    {
      // A field error of the scene itself: add the line where the field is written.
      if let field = error.location.field {
        error.location.line = fieldLocation(field, inSceneFile: path).line
      }
      throw error
    } catch var error as InputError where error.namedBy?.line == nil && error.namedBy != nil {
      // A file the scene names: add the line of the field that named it.
      if let field = error.namedBy?.field {
        error.namedBy?.line = fieldLocation(field, inSceneFile: path).line
      }
      throw error
    }
  }

  /// Where the dotted field `field` (`output.width`, `nodes[0].geometry`) is written in the
  /// scene file at `path`: the file, the 1-based line (nil when the file cannot be read or
  /// the field is absent) and the field, for errors found after loading.
  public static func fieldLocation(_ field: String, inSceneFile path: String) -> InputLocation {
    let line = (try? FileIO.read(path)).flatMap { JSONSyntaxLocator.line(ofField: field, in: $0) }
    return InputLocation(file: path, line: line, field: field)
  }
}

/// Turns a decoded `SceneFile` into a `ReplayScene`, checking every value.
struct SceneResolver {
  /// The most output frames one scene may ask for (about 3.9 days at 30 frames/s).
  static let maximumFrames = 10_000_000
  /// The most lights a scene holds: SceneKit lights a node with at most 8 (`SCNLight`), and
  /// each light costs every shaded pixel, so 200 000 lights are a mistake, not a scene.
  static let maximumLights = 8
  /// The most nodes in `nodes`, children included: each is drawn every frame.
  static let maximumNodes = 100_000
  /// The most entries in `planes`.
  static let maximumPlanes = 10_000
  /// The path helpers and located errors every session kind's section uses too.
  let section: SceneSection
  var path: String { section.sceneFilePath }
  /// Tracking keyframes the configured sessions added (`SceneSection.trackingKeyframes`).
  private(set) var sessionKeyframes: [(keyframe: TrackingKeyframe, field: String)] = []

  init(path: String) { section = SceneSection(sceneFilePath: path) }

  func error(_ field: String, _ reason: String) -> InputError { section.error(field, reason) }

  /// As `SceneSection.reading(_:field:_:)`.
  func reading<T>(_ file: String, field: String, _ body: () throws -> T) throws -> T {
    try section.reading(file, field: field, body)
  }

  /// As `SceneSection.resolvePath(_:field:)`.
  func resolvePath(_ p: String, field: String) throws -> String {
    try section.resolvePath(p, field: field)
  }

  mutating func resolve(_ file: SceneFile, sections: [DecodedSection]) throws -> ReplayScene {
    var warnings: [String] = []
    let name = file.name
    guard !name.isEmpty, name != ".", name != "..",
      name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }), name.utf8.count <= 100
    else {
      throw error(
        "name",
        "\(InputText.quoted(name)) must be 1–100 letters, digits, '-', '_' or '.', and not '.' or '..' "
          + "(it names the output folder Output/<name>)")
    }
    // Track: the scene's, or, for a scene whose sessions supply several views (a collaborative
    // scene's participants) and no top-level track, the first view's. Such sessions are then
    // configured here, before the rest of the common part.
    var sessions: [SceneSession] = []
    let track: CameraTrack
    var inputPaths: [String]
    let clamp: Bool
    var defaultStart = 0.0
    if let trackSpec = file.track {
      var context = section
      track = try context.readTrack(trackSpec, field: "track")
      warnings += context.warnings
      inputPaths = [path] + context.inputPaths
      clamp = trackSpec.clamp ?? false
    } else {
      inputPaths = [path]
      sessions = try configure(sections, warnings: &warnings, inputPaths: &inputPaths)
      guard
        let view = sessions.lazy.compactMap({ $0.configuration as? any MultiViewConfiguration })
          .first?.views.first
      else { throw error("track", "missing (required)") }
      track = view.track
      clamp = view.clampTrack
      defaultStart = view.start
    }
    guard let first = track.poses.first, let last = track.poses.last else {
      // A view's track has poses (`SceneSection.readTrack`); kept for a kind's own views.
      throw error("track.path", "the track has no poses")
    }
    let trackDuration = last.timeSeconds - first.timeSeconds

    // Camera.
    // A recording's lens is the capture camera unless the scene says otherwise.
    var capture =
      try recordingLens(file.background?.recording)?.intrinsics ?? CameraIntrinsics.defaultCapture
    if let k = file.intrinsics { capture = try section.intrinsics(k, field: "intrinsics") }
    let viewport = try choice(file.viewport, Viewport.self, field: "viewport") ?? .landscape
    let rotated = capture.rotated(for: viewport)
    let out = file.output
    let givenWidth = out?.width?.value
    let givenHeight = out?.height?.value
    for (field, value) in [("output.width", givenWidth), ("output.height", givenHeight)] {
      if let value, !(1...16384).contains(value) {
        throw error(field, "must be 1…16384 pixels (got \(value))")
      }
    }
    // One side given: the other keeps the viewport's aspect ratio.
    let aspect = Double(rotated.width) / Double(rotated.height)
    let width: Int =
      givenWidth ?? givenHeight.map { Int((Double($0) * aspect).rounded()) } ?? rotated.width
    let height: Int =
      givenHeight ?? givenWidth.map { Int((Double($0) / aspect).rounded()) } ?? rotated.height
    guard width > 0, height > 0, width <= 16384, height <= 16384 else {
      throw error("output", "width and height must be 1…16384 (got \(width)×\(height))")
    }
    guard width * height <= ImageLimits.maximumPixels else {
      throw error("output", ImageLimits.overPixelLimit(width, height))
    }
    let outputIntrinsics = capture.output(viewport: viewport, width: width, height: height)

    // Timing.
    let arRate = file.arFrameRate ?? 60
    guard arRate.isFinite, arRate > 0, arRate <= 1000 else {
      throw error("arFrameRate", "must be in (0, 1000] Hz")
    }
    let fps = out?.fps ?? 30
    guard fps.isFinite, fps > 0, fps <= arRate else {
      throw error("output.fps", "must be in (0, arFrameRate = \(arRate)] frames/s")
    }
    let start = file.start ?? defaultStart
    guard start.isFinite, start >= 0 else { throw error("start", "must be ≥ 0 seconds") }
    let frameCount: Int
    switch (file.duration, file.frames?.value) {
    case (.some, .some):
      throw error("duration", "give either duration or frames, not both")
    case (let d?, nil):
      guard d.isFinite, d >= 0 else { throw error("duration", "must be ≥ 0 seconds") }
      guard d * fps < Double(Self.maximumFrames) else {
        throw error("duration", "\(d) s at \(fps) frames/s is over \(Self.maximumFrames) frames")
      }
      frameCount = Int((d * fps + 1e-9).rounded(.down)) + 1
    case (nil, let n?):
      guard n > 0 else { throw error("frames", "must be ≥ 1") }
      frameCount = n
    case (nil, nil):
      let available = trackDuration - start
      guard available >= 0 else {
        throw error("start", "\(start) s is past the end of the track (\(trackDuration) s)")
      }
      guard available * fps < Double(Self.maximumFrames) else {
        throw error("duration", "the track gives over \(Self.maximumFrames) frames; set duration")
      }
      frameCount = Int((available * fps + 1e-9).rounded(.down)) + 1
    }
    guard frameCount <= Self.maximumFrames else {
      throw error("frames", "\(frameCount) frames is over the limit of \(Self.maximumFrames)")
    }
    let lastTime = start + Double(frameCount - 1) / fps
    // A start past the track's end is the start's fault, whatever the frame count.
    if !clamp, start > trackDuration + 1e-9 {
      throw error(
        "start",
        "\(start) s is past the end of the track (\(trackDuration) s; set track.clamp to hold the last pose)"
      )
    }
    if !clamp, lastTime > trackDuration + 1e-9 {
      throw error(
        file.frames != nil ? "frames" : "duration",
        "the replay runs to \(lastTime) s after the track's first pose but the track lasts \(trackDuration) s (set track.clamp to hold the last pose)"
      )
    }

    let near = file.clip?.near ?? 0.001
    let far = file.clip?.far ?? 1000
    guard near.isFinite, far.isFinite, near > 0, far > near else {
      throw error("clip", "need 0 < near < far")
    }

    // Output settings.
    let supersampling = out?.supersampling?.value ?? 1
    guard (1...8).contains(supersampling) else {
      throw error("output.supersampling", "must be 1…8")
    }
    var png = PNGEncoder()
    switch out?.png ?? "fast" {
    case "fast": break
    case "small": png = PNGEncoder.small
    case let other: throw error("output.png", "\(InputText.quoted(other)) is not fast or small")
    }

    var background = try resolveBackground(file.background)
    if let recording = file.background?.recording, case .fixed(let missing) = background {
      background = .recording(
        try resolveRecording(
          recording, capture: capture, missing: missing, warnings: &warnings,
          inputPaths: &inputPaths))
    }
    try validateLights(file.lights ?? [])
    let nodeCount = Self.countNodes(file.nodes ?? [], depth: 0)
    guard nodeCount <= Self.maximumNodes else {
      throw error(
        "nodes", "\(nodeCount) nodes (children included); a scene has at most \(Self.maximumNodes)")
    }
    try validateNodes(file.nodes ?? [], field: "nodes")
    let planes = try resolvePlanes(file.planes ?? [])
    let cloud = try (file.pointCloud ?? []).enumerated().map { i, p in
      try vector(p, field: "pointCloud[\(i)]")
    }
    if let y = file.estimatedFloorY, !y.isFinite { throw error("estimatedFloorY", "not finite") }
    if file.planeDetection != nil {
      throw error(
        "planeDetection",
        file.environment == nil
          ? "plane discovery needs an environment section: put planeDetection in it"
          : "planeDetection belongs in the environment section (environment.planeDetection)")
    }

    if file.track != nil {
      sessions = try configure(sections, warnings: &warnings, inputPaths: &inputPaths)
      if let multiView = sessions.lazy.compactMap({
        $0.configuration as? any MultiViewConfiguration
      }).first {
        // Every view follows its own track (`scene(forView:)`): this one moves no camera.
        let line = (try? FileIO.read(path)).flatMap {
          JSONSyntaxLocator.line(ofField: "track", in: $0)
        }
        warnings.append(
          "\(InputLocation(file: path, line: line, field: "track")): ignored: each of the "
            + "scene's \(multiView.views.count) views follows its own track; remove the "
            + "top-level one")
      }
    }
    if case .images(let images) = background {
      inputPaths += images
      // The last image then stands for the frames past it: said, as a camera image list's
      // repairs are.
      if images.count < frameCount {
        warnings.append(
          "\(ReplayScene.fieldLocation("background.images", inSceneFile: path)): "
            + "\(counted(images.count, "image")) for \(frameCount) frames: frames "
            + "\(images.count)…\(frameCount - 1) show the last one")
      }
    }
    let tracking = try resolveTracking(
      file.tracking, duration: Double(frameCount - 1) / fps, keyframes: sessionKeyframes,
      track: track, start: start)
    var environment: Environment?
    if let spec = file.environment {
      let loaded = try Environment.load(spec, section: section)
      warnings += loaded.warnings
      inputPaths += loaded.inputPaths
      environment = loaded
    }

    var scene = ReplayScene(
      name: name, sceneFilePath: path, track: track, clampTrack: clamp,
      captureIntrinsics: capture, viewport: viewport, outputIntrinsics: outputIntrinsics,
      schedule: FrameSchedule(arFrameRate: arRate, fps: fps, frameCount: frameCount),
      start: start, near: near, far: far, background: background,
      supersampling: supersampling, writesDepth: out?.depth ?? false, png: png,
      lights: file.lights ?? [], nodes: file.nodes ?? [], planes: planes, pointCloud: cloud,
      estimatedFloorY: file.estimatedFloorY, sessions: sessions, warnings: warnings,
      inputPaths: inputPaths)
    scene.tracking = tracking
    scene.environment = environment
    scene.featurePoints = environment.map { EnvironmentFeaturePoints($0) }
    if let environment, !environment.planeDetection.isEmpty {
      scene.discoverySurfaces = EnvironmentSurface.find(
        in: environment, alignments: environment.planeDetection,
        settings: PlaneDiscoverySettings())
      scene.warnings += scene.planeDiscoveryWarnings()
    }
    if tracking.isActive { scene.trackViews() }
    // A multi-view scene's views discover their own (`scene(forView:)`).
    if scene.multiView == nil { scene.planes += try scene.discoveredPlanes() }
    return scene
  }

  /// The `tracking` section checked, with the keyframes sessions added (`measure.tracking`,
  /// their times checked as `tracking.states`') after its own and the states recorded in the
  /// track (τ = track time − first − start).
  func resolveTracking(
    _ spec: TrackingSpec?, duration: Double,
    keyframes: [(keyframe: TrackingKeyframe, field: String)], track: CameraTrack, start: Double
  ) throws -> TrackingConfiguration {
    let first = track.poses.first?.timeSeconds ?? 0
    let recorded = track.trackingStates.map {
      TrackingKeyframe(t: $0.timeSeconds - first - start, state: $0.state)
    }
    var tracking = TrackingConfiguration()
    do {
      if let spec {
        tracking = try spec.configuration(duration: duration, recordedStates: recorded)
      }
      for (keyframe, field) in keyframes {
        _ = try TrackingSpec.checkedTime(keyframe.t, field: field, duration: duration)
      }
    } catch {
      throw self.error(error.field, error.reason)
    }
    // Stable by time: the section's keyframes before the sessions' at equal times.
    tracking.keyframes = (tracking.keyframes + keyframes.map(\.keyframe)).enumerated()
      .sorted { ($0.element.t, $0.offset) < ($1.element.t, $1.offset) }.map(\.element)
    return tracking
  }

  /// Each present kind's section checked and configured, in registration order.
  mutating func configure(
    _ sections: [DecodedSection], warnings: inout [String], inputPaths: inout [String]
  ) throws -> [SceneSession] {
    var sessionKeyframes: [(keyframe: TrackingKeyframe, field: String)] = []
    defer { self.sessionKeyframes = sessionKeyframes }
    var sessions: [SceneSession] = []
    for section in sections {
      var context = SceneSection(sceneFilePath: path)
      let configuration = try section.configure(in: &context)
      warnings += context.warnings
      inputPaths += context.inputPaths
      sessionKeyframes += context.trackingKeyframes
      sessions.append(SceneSession(key: section.key, configuration: configuration))
    }
    return sessions
  }

  /// As `SceneSection.choice(_:_:field:)`.
  func choice<T: RawRepresentable & CaseIterable>(_ value: String?, _ type: T.Type, field: String)
    throws -> T?
  where T.RawValue == String {
    try section.choice(value, type, field: field)
  }

  /// As `SceneSection.vector3(_:field:)`.
  func vector(_ values: [Double], field: String) throws -> Vector3 {
    try section.vector3(values, field: field)
  }

  /// As `SceneSection.color(_:field:)`.
  func color(_ values: [Double], field: String) throws -> Color {
    try section.color(values, field: field)
  }

  func resolveBackground(_ spec: SceneFile.BackgroundSpec?) throws -> BackgroundSource {
    guard let spec else { return .fixed(.solid(Color(red: 0.5, green: 0.5, blue: 0.5))) }
    let given = [spec.color != nil, spec.gradient != nil, spec.images != nil].filter { $0 }.count
    if spec.recording != nil {
      // The colour or gradient shows while no recorded image is taken yet.
      guard spec.images == nil else {
        throw error(
          "background", "give recording or images, not both (both are camera images)")
      }
      guard given <= 1 else {
        throw error("background", "recording goes with at most one of color, gradient")
      }
      if given == 0 { return .fixed(.solid(Color(red: 0.5, green: 0.5, blue: 0.5))) }
    }
    guard given == 1 else {
      throw error("background", "give exactly one of color, gradient, images, recording")
    }
    if let c = spec.color { return .fixed(.solid(try color(c, field: "background.color"))) }
    if let g = spec.gradient {
      return .fixed(
        .verticalGradient(
          top: try color(g.top, field: "background.gradient.top"),
          bottom: try color(g.bottom, field: "background.gradient.bottom")))
    }
    let folder = try resolvePath(spec.images ?? "", field: "background.images")
    // opendir first for the system's reason (no such folder, not a folder, no permission).
    let listed = opendir(folder)
    let reason = listed == nil ? String(cString: strerror(errno)) : "cannot be read"
    if let listed { closedir(listed) }
    guard listed != nil, let names = try? FileManager.default.contentsOfDirectory(atPath: folder)
    else {
      var listing = InputError(
        .missingInput, InputLocation(file: folder), "cannot list the folder: " + reason)
      listing.namedBy = InputLocation(file: path, field: "background.images")
      throw listing
    }
    let pngs = names.filter { $0.lowercased().hasSuffix(".png") }.sorted().map { folder + "/" + $0 }
    guard !pngs.isEmpty else {
      throw InputError(
        .missingInput, InputLocation(file: folder, field: "background.images"), "no .png files")
    }
    // The input rule, at load: a FIFO or device among the images is refused before any frame,
    // and so is an image whose header is no PNG's or declares an empty or oversized image.
    for png in pngs {
      try reading(png, field: "background.images") { try PNGDecodeLimits.checkHeader(ofFile: png) }
    }
    return .images(pngs)
  }

  func validateLights(_ lights: [SceneFile.LightSpec]) throws {
    guard lights.count <= Self.maximumLights else {
      throw error(
        "lights",
        "\(lights.count) lights; a scene has at most \(Self.maximumLights) (SceneKit's per-node limit)"
      )
    }
    for (i, light) in lights.enumerated() {
      let field = "lights[\(i)]"
      guard Light.Kind(rawValue: light.type) != nil else {
        throw error(
          field + ".type", "\(InputText.quoted(light.type)) is not directional or ambient")
      }
      if let c = light.color { _ = try color(c, field: field + ".color") }
      if let e = light.eulerAngles { _ = try vector(e, field: field + ".eulerAngles") }
      if let s = light.intensity, !(s.isFinite && s >= 0) {
        throw error(field + ".intensity", "must be ≥ 0")
      }
    }
  }

  func validateNodes(_ nodes: [SceneFile.NodeSpec], field: String, depth: Int = 0) throws {
    // `nodes` holds level depth + 1; a leaf's absent children are an empty array one deeper,
    // which a chain of exactly 32 levels reaches (it was refused).
    guard depth < 32 || nodes.isEmpty else {
      throw error(field, "nodes nested deeper than 32 levels (these are at level \(depth + 1))")
    }
    for (i, node) in nodes.enumerated() {
      let f = "\(field)[\(i)]"
      if let p = node.position { _ = try vector(p, field: f + ".position") }
      if let e = node.eulerAngles { _ = try vector(e, field: f + ".eulerAngles") }
      if let s = node.scale { _ = try vector(s, field: f + ".scale") }
      if let o = node.opacity, !(o.isFinite && o >= 0 && o <= 1) {
        throw error(f + ".opacity", "must be 0…1")
      }
      if let g = node.geometry {
        let count = [g.sphere != nil, g.box != nil, g.plane != nil].filter { $0 }.count
        guard count == 1 else {
          throw error(f + ".geometry", "give exactly one of sphere, box, plane")
        }
        let sizes = [
          g.sphere?.radius, g.box?.width, g.box?.height, g.box?.length, g.plane?.width,
          g.plane?.height,
        ]
        .compactMap { $0 }
        guard sizes.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
          throw error(f + ".geometry", "sizes must be finite and ≥ 0")
        }
      }
      if let m = node.material {
        if let d = m.diffuse { _ = try color(d, field: f + ".material.diffuse") }
        if let s = m.specular { _ = try color(s, field: f + ".material.specular") }
        if let l = m.lightingModel, LightingModel(rawValue: l) == nil {
          throw error(
            f + ".material.lightingModel",
            "\(InputText.quoted(l)) is not constant, lambert or blinn")
        }
        if let t = m.transparency, !(t.isFinite && t >= 0 && t <= 1) {
          throw error(f + ".material.transparency", "must be 0…1")
        }
        if let s = m.shininess, !(s.isFinite && s >= 0) {
          throw error(f + ".material.shininess", "must be ≥ 0")
        }
      }
      if let b = node.billboard, BillboardConstraint.FreeAxes(rawValue: b) == nil {
        throw error(f + ".billboard", "\(InputText.quoted(b)) is not all or y")
      }
      try validateNodes(node.children ?? [], field: f + ".children", depth: depth + 1)
    }
  }

  /// Nodes and their children (stops counting below 32 levels, which `validateNodes` refuses).
  static func countNodes(_ nodes: [SceneFile.NodeSpec], depth: Int) -> Int {
    guard depth < 33 else { return 0 }
    return nodes.reduce(nodes.count) { $0 + countNodes($1.children ?? [], depth: depth + 1) }
  }

  func resolvePlanes(_ planes: [SceneFile.PlaneSpec]) throws -> [TimedPlaneAnchor] {
    guard planes.count <= Self.maximumPlanes else {
      throw error("planes", "\(planes.count) planes; a scene has at most \(Self.maximumPlanes)")
    }
    let resolved = try planes.enumerated().map { i, spec in
      let f = "planes[\(i)]"
      let position = try vector(spec.position, field: f + ".position")
      let euler = try spec.eulerAngles.map { try vector($0, field: f + ".eulerAngles") } ?? .zero
      let center = try spec.center.map { try vector($0, field: f + ".center") } ?? .zero
      let extent = try planeExtent(spec.extent, field: f + ".extent")
      let boundary = try spec.boundary.map { try planeBoundary($0, field: f + ".boundary") }
      let alignment =
        try choice(spec.alignment, PlaneAnchor.Alignment.self, field: f + ".alignment")
        ?? .horizontal
      let visualization = spec.visualization ?? "none"
      guard ["none", "translucent", "fade"].contains(visualization) else {
        throw error(
          f + ".visualization",
          "\(InputText.quoted(visualization)) is not none, translucent or fade")
      }
      let appearsAt = spec.appearsAt ?? 0
      guard appearsAt.isFinite else { throw error(f + ".appearsAt", "not finite") }
      let node = Node()
      node.eulerAngles = euler
      let anchor = PlaneAnchor(
        identifier: spec.id ?? "plane-\(i)",
        worldFromAnchor: RigidTransform(rotation: node.orientation, translation: position),
        center: center, extent: extent, boundary: boundary, alignment: alignment)
      let updates = try planeUpdates(
        spec.updates ?? [], initial: anchor, appearsAt: appearsAt, field: f + ".updates")
      if let removal = spec.disappearsAt {
        guard removal.isFinite, removal > appearsAt else {
          throw error(f + ".disappearsAt", "must be a finite τ after appearsAt (\(appearsAt) s)")
        }
        if let last = updates.last, last.t >= removal {
          throw error(
            f + ".disappearsAt", "an update at \(last.t) s comes at or after the removal")
        }
      }
      if spec.mergedInto != nil, spec.disappearsAt == nil {
        throw error(f + ".mergedInto", "a merge needs disappearsAt, the τ of the merge")
      }
      return TimedPlaneAnchor(
        timeline: PlaneAnchorTimeline(
          initial: anchor, appearsAt: appearsAt, updates: updates, removedAt: spec.disappearsAt,
          mergedInto: spec.mergedInto),
        visualization: visualization)
    }
    // A merge names another anchor that is present when this one goes.
    // A plane without `id` is `plane-<index>`: a clash involving one names its default.
    var identifiers: [String: Int] = [:]
    for (i, plane) in resolved.enumerated() {
      let identifier = plane.timeline.identifier
      guard let earlier = identifiers[identifier] else {
        identifiers[identifier] = i
        continue
      }
      let hasIdentifier = planes[i].id != nil
      let earlierHasIdentifier = planes[earlier].id != nil
      guard hasIdentifier && earlierHasIdentifier else {
        let unnamed = hasIdentifier ? earlier : i
        throw error(
          hasIdentifier ? "planes[\(i)].id" : "planes[\(i)]",
          "\(InputText.quoted(identifier)) is used twice: planes[\(unnamed)] has no id, so "
            + "its id is \(InputText.quoted(identifier)) (planes[N] without id is plane-N); "
            + "give it an id")
      }
      throw error("planes[\(i)].id", "\(InputText.quoted(identifier)) is used twice")
    }
    for (i, plane) in resolved.enumerated() {
      guard let target = plane.timeline.mergedInto, let t = plane.timeline.removedAt else {
        continue
      }
      guard target != plane.timeline.identifier,
        let survivor = resolved.first(where: { $0.timeline.identifier == target })
      else {
        // Discovered anchors are found after the hand-keyed timelines are fixed.
        let discovered =
          target.hasPrefix("discovered-")
          ? " (a hand-keyed plane merges into another hand-keyed plane; discovered anchors "
            + "are not merge targets)" : ""
        throw error(
          "planes[\(i)].mergedInto",
          "\(InputText.quoted(target)) names no other plane in planes[]" + discovered)
      }
      guard survivor.timeline.version(at: t) != nil else {
        throw error(
          "planes[\(i)].mergedInto",
          "\(InputText.quoted(target)) is not present at the merge (τ = \(t) s)")
      }
    }
    return resolved
  }

  /// `[x, z]` metres, each finite and ≥ 0, as the extent vector `(x, 0, z)`.
  func planeExtent(_ values: [Double], field: String) throws -> Vector3 {
    guard values.count == 2, values.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
      throw error(field, "expected [x, z] in metres, ≥ 0")
    }
    return Vector3(values[0], 0, values[1])
  }

  /// `[[x, z], …]` as anchor-frame points with y = 0.
  func planeBoundary(_ points: [[Double]], field: String) throws -> [Vector3] {
    try points.enumerated().map { j, p in
      guard p.count == 2, p.allSatisfy(\.isFinite) else {
        throw error(field + "[\(j)]", "expected [x, z]")
      }
      return Vector3(p[0], 0, p[1])
    }
  }

  /// The updates of one plane, each carrying over what it omits from the state before it.
  func planeUpdates(
    _ specs: [SceneFile.PlaneUpdateSpec], initial: PlaneAnchor, appearsAt: Double,
    field: String
  ) throws -> [PlaneAnchorTimeline.Update] {
    var previous = PlaneAnchorTimeline.Update(
      t: appearsAt, center: initial.center, extent: initial.extent, boundary: initial.boundary)
    var out: [PlaneAnchorTimeline.Update] = []
    for (j, spec) in specs.enumerated() {
      let f = field + "[\(j)]"
      guard spec.t.isFinite, spec.t > previous.t else {
        throw error(
          f + ".t",
          "must be finite and after \(j == 0 ? "appearsAt" : "the previous update") "
            + "(\(previous.t) s)")
      }
      var update = previous
      update.t = spec.t
      if let c = spec.center { update.center = try vector(c, field: f + ".center") }
      if let e = spec.extent { update.extent = try planeExtent(e, field: f + ".extent") }
      if let b = spec.boundary {
        update.boundary = b.isEmpty ? nil : try planeBoundary(b, field: f + ".boundary")
      }
      out.append(update)
      previous = update
    }
    return out
  }
}
