import ARFormats
import ARMath
import ARScene
import ARSession
import ARSupport

/// Checks a `collaboration` section and resolves its files into a `CollaborationConfiguration`.
struct CollaborationSceneBuilder {
  let section: CollaborationSection
  let root = "collaboration"

  func build(in scene: inout SceneSection) throws -> CollaborationConfiguration {
    let specs = section.participants
    guard specs.count >= 2 else {
      throw scene.error(
        "\(root).participants", "needs two or more participants, got \(specs.count)")
    }
    var participants: [Participant] = []
    var views: [ReplayView] = []
    var seen = Set<String>()
    for (i, spec) in specs.enumerated() {
      let field = "\(root).participants[\(i)]"
      let id = spec.id
      guard !id.isEmpty, id.count <= 64, id != ".", id != "..",
        id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
      else {
        throw scene.error(
          "\(field).id",
          "\(InputText.quoted(id)) must be 1–64 ASCII letters, digits or -_. (an RTM id and a folder name)"
        )
      }
      // Each view is the folder DIR/<id>, beside the run's own files in DIR.
      guard !OutputFolder.isOwnEntryName(id) else {
        throw scene.error(
          "\(field).id",
          "\(InputText.quoted(id)) is a name the output folder's own files take (its view "
            + "folder would be DIR/\(id)); choose another id")
      }
      guard seen.insert(id).inserted else {
        throw scene.error("\(field).id", "\(InputText.quoted(id)) is repeated")
      }
      let (view, participant) = try participantAndView(spec, field: field, in: &scene)
      views.append(view)
      participants.append(participant)
    }
    let ids = Set(participants.map(\.id))
    let network = try networkConfiguration(ids: ids, scene: scene)
    let assets = try assetShapes(scene: scene)
    let actions = try modelActions(ids: ids, scene: scene)
    scene.warnings += unknownModelWarnings(
      actions, participants: participants, sceneFilePath: scene.sceneFilePath)
    let room = try roomData(scene: scene)
    let collaboration = CollaborationScene(
      participants: participants, room: room, network: network, actions: actions,
      assets: assets, seed: section.seed?.value ?? 0)
    return CollaborationConfiguration(scene: collaboration, views: views)
  }

  private func finite(
    _ value: Double?, _ field: String, min: Double = -.infinity, _ scene: SceneSection
  ) throws {
    try scene.finite(value, field: field, minimum: min)
  }

  private func vector(_ values: [Double]?, count: Int, _ field: String, _ scene: SceneSection)
    throws -> [Double]?
  {
    try values.map { try scene.finiteNumbers($0, count: count, field: field) }
  }

  private func vector(_ values: [Double], count: Int, _ field: String, _ scene: SceneSection)
    throws -> [Double]
  {
    try scene.finiteNumbers(values, count: count, field: field)
  }

  /// RealityKit's `Float`s, decoded as `Double` (the same value: JSONDecoder rounds a `Float`
  /// from its `Double`) so that a number out of range is reported with its field.
  private func floats(_ values: [Double]?, count: Int, _ field: String, _ scene: SceneSection)
    throws -> [Float]?
  {
    guard let values = try vector(values, count: count, field, scene) else { return nil }
    let floats = values.map(Float.init)
    guard floats.allSatisfy(\.isFinite) else {
      throw scene.error(field, "expected \(count) numbers within ±3.4e38 (RealityKit's Float)")
    }
    return floats
  }

  private func participantAndView(
    _ spec: CollaborationSection.ParticipantSpec, field: String, in scene: inout SceneSection
  ) throws -> (ReplayView, Participant) {
    let inputCount = scene.inputPaths.count
    // The track, read now so bad input fails before any output.
    let track = try scene.readTrack(spec.track, field: "\(field).track")
    let trackPaths = Array(scene.inputPaths.suffix(from: inputCount))
    try finite(spec.start, "\(field).start", min: 0, scene)
    let intrinsics = try spec.intrinsics.map {
      try scene.intrinsics($0, field: "\(field).intrinsics")
    }
    let viewport = try scene.choice(spec.viewport, Viewport.self, field: "\(field).viewport")
    let outputSize = try spec.output.map { try scene.size($0, field: "\(field).output") }
    var view = ReplayView(
      name: spec.id, track: track, trackPaths: trackPaths, start: spec.start ?? 0,
      clampTrack: spec.track.clamp ?? false, captureIntrinsics: intrinsics, viewport: viewport,
      outputSize: outputSize)
    view.trackField = "\(field).track"

    let anchor = try collabAnchor(spec.anchor, id: spec.id, field: "\(field).anchor", scene)
    let globeAnchor = try spec.globeAnchor.map {
      try collabAnchor($0, id: spec.id, field: "\(field).globeAnchor", scene)
    }

    // Colour and times.
    let color = try spec.color.map {
      try scene.colorComponents($0, field: "\(field).color", alpha: ParticipantColor.alpha)
    }
    for (value, name) in [(spec.lobby, "lobby"), (spec.join, "join"), (spec.leave, "leave")] {
      try finite(value, "\(field).\(name)", min: 0, scene)
    }
    // Absent: joins at once (when it enters the lobby, if it does).
    let join: Double? = spec.join ?? spec.lobby ?? 0
    if let lobby = spec.lobby, let join, join < lobby {
      throw scene.error(
        "\(field).join", "joins at \(join) s, before entering the lobby at \(lobby) s")
    }
    if let leave = spec.leave, leave < (join ?? .infinity) {
      throw scene.error("\(field).leave", "leaves at \(leave) s without having joined before")
    }
    var log: RTMMessageLog?
    if let messages = spec.messages {
      let logPath = scene.resolvePath(messages)
      let bytes = try scene.reading(logPath, field: "\(field).messages") {
        try FileIO.read(logPath, maximumBytes: 64 << 20)
      }
      scene.inputPaths.append(logPath)
      log = RTMMessageLog.parse(bytes, file: logPath)
    }
    let participant = Participant(
      id: spec.id, anchor: anchor, globeAnchor: globeAnchor, color: color, lobbySeconds: spec.lobby,
      joinSeconds: join, leaveSeconds: spec.leave, messageLog: log)
    return (view, participant)
  }

  private func collabAnchor(
    _ spec: CollaborationSection.AnchorSpec, id: String, field anchorField: String,
    _ scene: SceneSection
  ) throws -> CollabAnchor {
    switch (spec.position, spec.plane) {
    case (let position?, nil):
      return .transform(
        try scene.nodeTransform(
          position: position, field: "\(anchorField).position", eulerAngles: spec.eulerAngles,
          field: "\(anchorField).eulerAngles"))
    case (nil, let plane?):
      let worldFromAnchor = try scene.nodeTransform(
        position: plane.position, field: "\(anchorField).plane.position",
        eulerAngles: plane.eulerAngles, field: "\(anchorField).plane.eulerAngles")
      let extent = try vector(plane.extent, count: 2, "\(anchorField).plane.extent", scene)
      let anchorPlane = PlaneAnchor(
        identifier: id + "-floor",
        worldFromAnchor: RigidTransform(matrix: worldFromAnchor),
        center: .zero, extent: Vector3(extent[0], 0, extent[1]), alignment: .horizontal)
      // Horizontal means the plane's normal is world up.
      let up = anchorPlane.worldFromAnchor.rotation.act(.unitY)
      if up.y < 0.999 {
        throw scene.error(
          "\(anchorField).plane.eulerAngles", "the app anchors on a horizontal plane (normal +Y)")
      }
      if let problem = CollabAnchor.problem(with: anchorPlane) {
        throw scene.error("\(anchorField).plane.extent", problem)
      }
      return .plane(anchorPlane)
    default:
      throw scene.error(anchorField, "give either position (and eulerAngles) or plane")
    }
  }

  private func networkConfiguration(ids: Set<String>, scene: SceneSection) throws
    -> SimulatedNetwork.Configuration
  {
    let spec = section.network
    let field = "\(root).network"
    func link(
      _ latency: Double?, _ jitter: Double?, _ loss: Double?, _ at: String, base: NetworkLink
    )
      throws -> NetworkLink
    {
      try finite(latency, "\(at).latency", min: 0, scene)
      try finite(jitter, "\(at).jitter", min: 0, scene)
      if let loss, !(loss >= 0 && loss <= 1) { throw scene.error("\(at).loss", "must be in 0…1") }
      if let latency, latency > 60 { throw scene.error("\(at).latency", "over 60 s") }
      if let jitter, jitter > 60 { throw scene.error("\(at).jitter", "over 60 s") }
      return NetworkLink(
        latencySeconds: latency ?? base.latencySeconds, jitterSeconds: jitter ?? base.jitterSeconds,
        loss: loss ?? base.loss)
    }
    let base = try link(spec?.latency, spec?.jitter, spec?.loss, field, base: .ideal)
    var links: [String: [String: NetworkLink]] = [:]
    for (i, l) in (spec?.links ?? []).enumerated() {
      let at = "\(field).links[\(i)]"
      guard ids.contains(l.from) else {
        throw scene.error("\(at).from", "no participant \(InputText.quoted(l.from))")
      }
      guard ids.contains(l.to) else {
        throw scene.error("\(at).to", "no participant \(InputText.quoted(l.to))")
      }
      // A participant's messages never travel to itself: such a link would say nothing.
      guard l.to != l.from else {
        throw scene.error(
          "\(at).to",
          "\(InputText.quoted(l.to)) is the link's own sender: a link joins two participants")
      }
      // Two links for one direction: the last would win silently.
      if let earlier = (spec?.links ?? []).prefix(i).firstIndex(where: {
        $0.from == l.from && $0.to == l.to
      }) {
        throw scene.error(
          at,
          "a second link from \(InputText.quoted(l.from)) to \(InputText.quoted(l.to)) "
            + "(\(field).links[\(earlier)] is the first): one link per direction")
      }
      links[l.from, default: [:]][l.to] = try link(l.latency, l.jitter, l.loss, at, base: base)
    }
    let limits: SendLimits
    switch spec?.limits ?? "agoraRTM" {
    case "agoraRTM": limits = .agoraRTM
    case "none": limits = .none
    case let other:
      throw scene.error(
        "\(field).limits", "\(InputText.quoted(other)) is not one of agoraRTM, none")
    }
    return SimulatedNetwork.Configuration(
      seed: section.seed?.value ?? 0, defaultLink: base, links: links, limits: limits)
  }

  private func assetShapes(scene: SceneSection) throws -> [String: AssetShape] {
    var shapes: [String: AssetShape] = [:]
    for (name, spec) in section.assets ?? [:] {
      let field = "\(root).assets.\(name)"
      let shape: Shape
      switch (spec.sphere, spec.box) {
      case (let s?, nil):
        guard s.radius.isFinite, s.radius > 0 else {
          throw scene.error("\(field).sphere.radius", "must be > 0")
        }
        shape = .sphere(Sphere(radius: s.radius))
      case (nil, let b?):
        guard [b.width, b.height, b.length].allSatisfy({ $0.isFinite && $0 > 0 }) else {
          throw scene.error("\(field).box", "sizes must be > 0")
        }
        shape = .box(Box(width: b.width, height: b.height, length: b.length))
      default:
        throw scene.error(field, "give exactly one of sphere, box")
      }
      let color = try scene.colorComponents(spec.color ?? [1, 1, 1, 1], field: "\(field).color")
      shapes[name] = AssetShape(shape: shape, color: color)
    }
    return shapes
  }

  private func transform(
    translation: [Double]?, rotation: [Double]?, scale: [Double]?, field: String,
    scene: SceneSection
  ) throws -> EntityTransform {
    let t = try floats(translation, count: 3, "\(field).translation", scene) ?? [0, 0, 0]
    let r = try floats(rotation, count: 4, "\(field).rotation", scene) ?? [0, 0, 0, 1]
    // A quaternion of zero length (also one whose components round to Float zeros) is no
    // rotation, as in a track file.
    guard r.contains(where: { $0 != 0 }) else {
      throw scene.error(
        "\(field).rotation",
        "a quaternion of zero length is no rotation: give (x, y, z, w), e.g. [0, 0, 0, 1]")
    }
    let s = try floats(scale, count: 3, "\(field).scale", scene) ?? [1, 1, 1]
    return EntityTransform(
      scale: SIMD3(s[0], s[1], s[2]), rotation: SIMD4(r[0], r[1], r[2], r[3]),
      translation: SIMD3(t[0], t[1], t[2]))
  }

  private func modelActions(ids: Set<String>, scene: SceneSection) throws -> [ModelAction] {
    var actions: [ModelAction] = []
    for (i, spec) in (section.actions ?? []).enumerated() {
      let field = "\(root).actions[\(i)]"
      try finite(spec.t, "\(field).t", min: 0, scene)
      guard ids.contains(spec.participant) else {
        throw scene.error(
          "\(field).participant", "no participant \(InputText.quoted(spec.participant))")
      }
      let given = [
        spec.add != nil, spec.select != nil, spec.move != nil, spec.unselect != nil,
        spec.remove != nil,
      ]
      guard given.filter({ $0 }).count == 1 else {
        throw scene.error(field, "give exactly one of add, select, move, unselect, remove")
      }
      let model: String
      let kind: ModelAction.Kind
      if let add = spec.add {
        model = add.model
        if add.screenCenter == true {
          kind = .add(usdz: add.usdz, placement: .screenCenter)
        } else {
          kind = .add(
            usdz: add.usdz,
            placement: .collabBase(
              try transform(
                translation: add.translation, rotation: add.rotation, scale: add.scale,
                field: "\(field).add", scene: scene)))
        }
      } else if let id = spec.select {
        model = id
        kind = .select
      } else if let id = spec.move {
        model = id
        guard let path = spec.path, !path.isEmpty else {
          throw scene.error("\(field).path", "a move needs a path of one or more keyframes")
        }
        var keyframes: [ModelAction.Keyframe] = []
        for (k, key) in path.enumerated() {
          try finite(key.t, "\(field).path[\(k)].t", min: 0, scene)
          if let last = keyframes.last, key.t <= last.seconds {
            throw scene.error("\(field).path[\(k)].t", "times must increase")
          }
          keyframes.append(
            .init(
              seconds: key.t,
              transform: try transform(
                translation: key.translation, rotation: key.rotation, scale: key.scale,
                field: "\(field).path[\(k)]", scene: scene)))
        }
        kind = .move(path: keyframes)
      } else if let id = spec.unselect {
        model = id
        kind = .unselect
      } else {
        model = spec.remove ?? ""
        kind = .remove
      }
      actions.append(
        ModelAction(
          seconds: spec.t, participant: spec.participant, model: model, kind: kind, index: i))
    }
    return actions
  }

  /// A select, move, unselect or remove of a model no `add` action names, in a scene without
  /// recorded message logs (whose messages could add it): the action can never find its
  /// model, so the app would do nothing (usually a misspelt id).
  private func unknownModelWarnings(
    _ actions: [ModelAction], participants: [Participant], sceneFilePath: String
  ) -> [String] {
    guard participants.allSatisfy({ $0.messageLog == nil }) else { return [] }
    var added = Set<String>()
    for action in actions {
      if case .add = action.kind { added.insert(action.model) }
    }
    return actions.compactMap { action in
      if case .add = action.kind { return nil }
      guard !added.contains(action.model) else { return nil }
      let location = InputLocation(file: sceneFilePath, field: "\(root).actions[\(action.index)]")
      return "\(location): no action adds a model \(InputText.quoted(action.model)), so this "
        + "action finds none and does nothing"
    }
  }

  private func roomData(scene: SceneSection) throws -> ChannelData {
    var room = CollaborationScene.defaultRoom
    guard let spec = section.room else { return room }
    if let id = spec.channelID {
      guard !id.isEmpty, id != lobbyChannelID else {
        throw scene.error("\(root).room.channelID", "must be non-empty and not 'lobby'")
      }
      room.channelID = id
    }
    if let name = spec.channelName { room.channelName = name }
    if let p = try floats(spec.position, count: 3, "\(root).room.position", scene) {
      room.position = SIMD3(p[0], p[1], p[2])
    }
    if let image = spec.systemImage { room.systemImage = image }
    if let type = spec.channelType { room.channelType = type }
    return room
  }
}
