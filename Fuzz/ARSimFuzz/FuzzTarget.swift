import ARCameraImages
import ARCollaboration
import AREnvironment
import ARFormats
import ARRemoteAssist
import ARRender
import ARReplay
import ARSession
import ARSimCLI
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// libFuzzer entry points for every ARSim reader. Built only by `Scripts/fuzz` (the target
/// exists in Package.swift only when `ARSIM_FUZZ` is set), with `-sanitize=fuzzer,address`;
/// `ARSIM_FUZZ_TARGET` picks the reader (see `FuzzTarget`).
enum FuzzTarget: String, CaseIterable {
  case scene, tum, arkit, kitti, euroc, arkitscenes, arcore, jsontrack, strokes, quickdraw, y4m,
    png, message, rtm, imagelist, wire, strokeport, environment, model

  /// The reader named by `ARSIM_FUZZ_TARGET` (default `scene`).
  static let current: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["ARSIM_FUZZ_TARGET"] ?? "scene"
    guard let target = FuzzTarget(rawValue: name) else {
      print("ARSIM_FUZZ_TARGET must be one of \(allCases.map(\.rawValue))")
      exit(2)
    }
    return target
  }()

  /// A private folder holding a valid track and stroke log, so fuzzed scenes that name
  /// `track.txt` or `s.jsonl` get past the file reads.
  static let folder: String = {
    let path = NSTemporaryDirectory() + "arsim-fuzz-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    _ = FileManager.default.createFile(
      atPath: path + "/track.txt",
      contents: Data("0 0 0 0 0 0 0 1\n1 0 0 0.1 0 0 0 1\n2 0 0 0.2 0 0 0 1\n".utf8))
    _ = FileManager.default.createFile(
      atPath: path + "/s.jsonl", contents: Data("{\"t\":0,\"data\":\"touch-start\"}\n".utf8))
    // For `environment`: a model and a texture the fuzzed section may name.
    _ = FileManager.default.createFile(
      atPath: path + "/cube.obj",
      contents: Data("v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nf 1/1 2/2 3/3\n".utf8))
    if let png = try? Image(width: 3, height: 2).pngData() {
      _ = FileManager.default.createFile(atPath: path + "/t.png", contents: Data(png))
    }
    return path
  }()

  /// Writes `bytes` to the folder under `name` and returns the path.
  static func file(_ name: String, _ bytes: [UInt8]) -> String {
    let path = folder + "/" + name
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    return path
  }

  /// Feeds one input to the reader; every thrown error is an accepted outcome, a crash,
  /// sanitizer report or hang is a finding.
  func run(_ bytes: [UInt8]) {
    switch self {
    case .scene:
      _ = try? ReplayScene.load(path: Self.file("scene.json", bytes), registry: .builtIn)
    case .tum, .arkit, .kitti, .euroc, .arkitscenes, .arcore:
      // In memory, as the other in-memory readers (no file round trip per input).
      let format = TrackFormat(rawValue: rawValue)
      _ = try? CameraTrack.read(
        bytes: bytes, file: "fuzz.track", options: TrackReadOptions(format: format))
    case .jsontrack:
      _ = try? CameraTrack.read(path: Self.file("t.json", bytes))
    case .strokes:
      if let log = try? StrokeLog.parse(bytes, file: "fuzz") {
        _ = log.jsonLines
      }
    case .quickdraw:
      if let drawing = try? QuickDrawDrawing.parse(Data(bytes), file: "fuzz", line: 1) {
        _ = HelperSimulation().messages(for: drawing)
      }
    case .y4m:
      if let reader = try? Y4MReader(path: Self.file("v.y4m", bytes)) {
        _ = try? reader.scan()
        while let frame = try? reader.nextFrame() { _ = frame.index }
      }
    case .imagelist:
      // The three camera-image list readers on the same bytes, and the image decoder (JPEG).
      for format in CameraImageListFormat.allCases {
        _ = try? CameraImageList.parse(bytes, file: "fuzz", format: format, base: Self.folder)
      }
      _ = try? CameraImageDecoder.decode(bytes, file: "fuzz")
    case .png:
      _ = try? Image(pngData: bytes, file: "fuzz")
      _ = try? DepthImage(pngData: bytes, file: "fuzz")
    case .message:
      let text = String(decoding: bytes, as: UTF8.self)
      for mode in RemoteAssistMode.allCases {
        _ = RemoteAssistMessage.classify(text, mode: mode)
      }
    case .environment:
      // The section on its own (decoding and every check), then through a whole scene.
      if let spec = try? JSONDecoder().decode(EnvironmentSpec.self, from: Data(bytes)) {
        _ = try? Environment.load(
          spec, section: SceneSection(sceneFilePath: Self.folder + "/e.json"))
      }
    case .model:
      // The first byte picks the kind; the rest is the file (ModelFile's checks, Assimp in the
      // child, the result's reader).
      guard let kind = bytes.first else { return }
      let name = ["m.glb", "m.gltf", "m.obj"][Int(kind) % 3]
      _ = try? ModelFile.read(path: Self.file(name, Array(bytes.dropFirst())))
    case .rtm:
      // A recorded RTM log, and each payload through the app's three payload types.
      let log = RTMMessageLog.parse(bytes, file: "fuzz")
      for entry in log.entries {
        _ = try? RTMPayloadCoding.decode(PeerData.self, from: entry.payload)
        _ = try? RTMPayloadCoding.decode(ModelData.self, from: entry.payload)
        _ = try? RTMPayloadCoding.decode([ModelData].self, from: entry.payload)
        _ = try? RTMPayloadCoding.decode(ChannelData.self, from: entry.payload)
      }
    case .wire:
      LiveWireFuzz.frames(bytes)
    case .strokeport:
      LiveWireFuzz.strokeMessages(bytes)
    }
  }
}

/// The per-input callback handed to `LLVMFuzzerRunDriver` by main.swift.

func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  FuzzTarget.current.run(bytes)
  return 0
}

/// libFuzzer's standard entry point, for a link where libFuzzer's own `main` is the one used.
@_cdecl("LLVMFuzzerTestOneInput")
func llvmFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  fuzzTestOneInput(data, size)
}
