import ARCameraImages
import ARRenderCore
import ARScene
import ARSupport
import Foundation

/// A scene's `background.recording`, resolved (Documentation/CameraImages.md).
public struct RecordingBackground: Sendable {
  /// Where the images come from.
  public enum Source: Sendable {
    /// An image list's files.
    case list(CameraImageList)
    /// A video file, probed by ffprobe when the scene loads; its frames are decoded by ffmpeg
    /// during the run.
    case video(VideoProbe)
  }

  /// The images.
  public var source: Source
  /// Their lens.
  public var lens: CameraLens
  /// Image clock minus pose clock, seconds.
  public var offset: Double
  /// What shows while no image is taken yet, and where a ray misses the recorded image.
  public var missing: Background
}

extension ReplayScene {
  /// The image files of a `background.recording` list: inputs that may be missing when the
  /// run starts (each missing one is a warning during the run, not a refusal).
  public var recordedImagePaths: Set<String> {
    guard case .recording(let recording) = background, case .list(let list) = recording.source
    else { return [] }
    return Set(list.entries.map(\.path))
  }
}

extension SceneResolver {
  /// The recorded images' lens, when the scene gives one.
  func recordingLens(_ spec: SceneFile.RecordingSpec?) throws -> CameraLens? {
    guard let spec = spec?.lens else { return nil }
    let lens = spec.intrinsics
    let field = "background.recording.lens"
    guard [lens.fx, lens.fy, lens.cx, lens.cy].allSatisfy(\.isFinite), lens.fx > 0, lens.fy > 0
    else { throw error(field, "fx and fy must be positive and all values finite") }
    let width = lens.width.value
    let height = lens.height.value
    guard (1...CameraImageDecoder.maximumSide).contains(width),
      (1...CameraImageDecoder.maximumSide).contains(height)
    else { throw error(field, "width and height must be 1…\(CameraImageDecoder.maximumSide)") }
    let intrinsics = CameraIntrinsics(
      fx: lens.fx, fy: lens.fy, cx: lens.cx, cy: lens.cy, width: width, height: height)
    guard let distortion = spec.distortion else { return CameraLens(intrinsics: intrinsics) }
    let c = distortion.coefficients
    guard c.allSatisfy(\.isFinite) else {
      throw error(field + ".distortion.coefficients", "must be finite numbers")
    }
    switch distortion.model {
    case "radialTangential":
      guard c.count == 4 || c.count == 5 else {
        throw error(
          field + ".distortion.coefficients",
          "radialTangential takes k1 k2 p1 p2 [k3] (4 or 5 numbers, OpenCV's order); got \(c.count)"
        )
      }
      return CameraLens(
        intrinsics: intrinsics,
        distortion: .radialTangential(
          k1: c[0], k2: c[1], p1: c[2], p2: c[3], k3: c.count == 5 ? c[4] : 0))
    case "equidistant":
      guard c.count == 4 else {
        throw error(
          field + ".distortion.coefficients", "equidistant takes k1 k2 k3 k4; got \(c.count)")
      }
      return CameraLens(
        intrinsics: intrinsics,
        distortion: .equidistant(k1: c[0], k2: c[1], k3: c[2], k4: c[3]))
    case let other:
      throw error(
        field + ".distortion.model",
        "\(InputText.quoted(other)) is not radialTangential or equidistant")
    }
  }

  /// `background.recording` with its list read (the scene's capture intrinsics stand in for a
  /// missing lens); `missing` is the section's colour or gradient.
  func resolveRecording(
    _ spec: SceneFile.RecordingSpec, capture: CameraIntrinsics, missing: Background,
    warnings: inout [String], inputPaths: inout [String]
  ) throws -> RecordingBackground {
    let field = "background.recording"
    let lens = try recordingLens(spec) ?? CameraLens(intrinsics: capture)
    let offset = spec.offset ?? 0
    // Up to 4·10⁹ s (a Unix time against a clock from 0, until 2096): beyond it a frame's
    // time on the image clock is no longer kept to the microsecond the lists are stamped in.
    guard offset.isFinite, abs(offset) <= 4e9 else {
      throw error(field + ".offset", "must be a number of seconds from -4e9 to 4e9")
    }
    switch (spec.list, spec.video) {
    case (let list?, nil):
      let path = try resolvePath(list, field: field + ".list")
      let folder = try spec.folder.map { try resolvePath($0, field: field + ".folder") }
      // Checked here, where every frame would otherwise warn that its image is missing.
      if let folder {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else {
          throw InputError(
            .missingInput, InputLocation(file: folder, field: field + ".folder"), "no such folder")
        }
        guard isDirectory.boolValue else {
          throw InputError(
            .missingInput, InputLocation(file: folder, field: field + ".folder"),
            "not a folder")
        }
      }
      let format: CameraImageListFormat
      if let given = spec.format {
        guard let parsed = CameraImageListFormat(rawValue: given) else {
          throw error(
            field + ".format", "\(InputText.quoted(given)) is not one of tum, euroc, times")
        }
        format = parsed
      } else if folder != nil {
        // `folder` is the `times` format's (TUM and EuRoC lists find their images themselves).
        format = .times
      } else {
        format = path.lowercased().hasSuffix(".csv") ? .euroc : .tum
      }
      if folder != nil, format != .times {
        warnings.append(
          "\(field).folder is read only with format 'times' (a \(format.rawValue) list finds its "
            + "images beside itself); ignored")
      }
      let images = try reading(path, field: field + ".list") {
        try CameraImageList.read(path: path, format: format, folder: folder)
      }
      warnings += images.warnings
      inputPaths.append(path)
      inputPaths += images.entries.map(\.path)
      // A missing image is a warning during the run (the previous image stays); one that
      // exists must be a regular file (the input rule), refused at once naming its line.
      for entry in images.entries where FileIO.exists(entry.path) {
        do {
          try FileIO.checkRegularFile(entry.path)
        } catch let failure as InputError {
          // The list's line and column, then the scene field that named the list.
          var refused = InputError(
            failure.kind, InputLocation(file: path, line: entry.line, field: "filename"),
            "\(InputText.quotedPath(entry.path)) \(failure.reason)")
          refused.namedBy = InputLocation(file: self.path, field: field + ".list")
          throw refused
        }
      }
      return RecordingBackground(
        source: .list(images), lens: lens, offset: offset, missing: missing)
    case (nil, let video?):
      let path = try resolvePath(video, field: field + ".video")
      // Probed here, so a video ffmpeg cannot deliver is refused before a run touches its
      // output folder; its errors name this field and line as a list's do.
      let probe = try reading(path, field: field + ".video") {
        guard FileIO.exists(path) else {
          throw InputError(.missingInput, InputLocation(file: path), "no such file")
        }
        return try VideoFrameSource.probe(path)
      }
      for (name, given) in [("folder", spec.folder != nil), ("format", spec.format != nil)]
      where given {
        warnings.append("\(field).\(name) belongs to a list, not a video; ignored")
      }
      inputPaths.append(path)
      return RecordingBackground(
        source: .video(probe), lens: lens, offset: offset, missing: missing)
    default:
      throw error(field, "give exactly one of list, video")
    }
  }
}
