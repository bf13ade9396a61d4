import ARSupport
import ARTestSupport
import Foundation
import Testing

@testable import ARSimCLI

/// `arsim bench B4 --participants N`: the scene it generates and what it prints.
@Suite("arsim bench B4")
final class CollaborationBenchTests {
  private let temporary = TemporaryFolder("b4")
  var root: String { temporary.path }

  // Each test gets its own instance: its folder goes when the test ends.
  deinit { temporary.remove() }

  /// An ARKit data-logger track (nanosecond time stamp, 3 × 4 pose): 21 poses 0.1 s apart.
  func writeTrack() throws -> String {
    let path = root + "/track.txt"
    let rows = (0...20).map { i in "\(i * 100_000_000) 1 0 0 \(Double(i) / 100) 0 1 0 1.5 0 0 1 0" }
    try FileIO.writeAtomically(Array((rows.joined(separator: "\n") + "\n").utf8), to: path)
    return path
  }

  @Test("three participants: three views, starts as far apart as the 2 s track allows")
  func threeParticipants() throws {
    let track = try writeTrack()
    let out = root + "/bench"
    let (code, output) = runCommand([
      "bench", "B4", "--participants", "3", "--frames", "2", "--track", track, "--out", out,
      "--threads", "1",
    ])
    #expect(code == 0, "\(output.standardError)")
    #expect(
      output.standardOutput.contains(
        "B4 collaboration 1280×720, 3 participants × 2 frames against single views"),
      "\(output.standardOutput)")
    #expect(output.standardOutput.contains("(3 views "), "\(output.standardOutput)")
    #expect(output.standardOutput.contains("(3 runs "), "\(output.standardOutput)")
    // CPU time (getrusage) per participant-view frame, and the rasterizer build one thread ran.
    #expect(
      output.standardOutput.contains("  CPU per participant-view frame "),
      "\(output.standardOutput)")
    #expect(output.standardOutput.contains("; instructions "), "\(output.standardOutput)")
    for view in ["A", "B", "C"] {
      let frames = try FileManager.default.contentsOfDirectory(atPath: out + "/B4/views/" + view)
        .filter { $0.hasPrefix("frame_") }
      #expect(frames.count == 2, "\(view)")
      #expect(FileManager.default.fileExists(atPath: out + "/B4/single-" + view + "/run.json"))
    }
    // The track lasts 2 s and the replay 1/30 s: starts (2 − 1/30) / 2 s apart.
    let scene = try String(contentsOfFile: out + "/B4/collab-bench.json", encoding: .utf8)
    let spacing = (2 - 1.0 / 30) / 2
    #expect(scene.contains("\"start\": \(spacing * 2),"), "\(scene)")
    #expect(scene.contains("\"start\": 0,"))
  }

  @Test("--participants outside 2…64 or without B4 is a usage error")
  func usage() {
    for arguments in [
      ["B4", "--participants", "1"], ["B4", "--participants", "65"], ["B3", "--participants", "4"],
    ] {
      let (code, output) = runCommand(["bench"] + arguments + ["--frames", "1"])
      #expect(code == 64, "\(arguments) \(output.standardError)")
      #expect(output.standardError.contains("--participants"), "\(output.standardError)")
    }
  }

  @Test("--size or --spheres with only B4 or S1 named is a usage error (they were ignored)")
  func sizeWithoutSizedBench() {
    for (arguments, named) in [
      (["B4", "--size", "64x48"], "--size"), (["S1", "--spheres", "5"], "--spheres"),
      (["B4", "S1", "--size", "64x48", "--spheres", "5"], "--size and --spheres"),
    ] {
      let (code, output) = runCommand(["bench"] + arguments + ["--frames", "1"])
      #expect(code == 64, "\(arguments) \(output.standardError)")
      #expect(
        output.standardError.contains(
          "\(named) set B1, B2, B3, B5 and B6's size and load: name one of them too"),
        "\(output.standardError)")
    }
  }

  @Test("--track with only S1 named is a usage error (it was ignored, exit 0)")
  func trackWithoutCamera() {
    for track in [
      "/nonexistent", Fixtures.repositoryPath("Scenes/Inputs/tum_fr1_xyz_groundtruth.txt"),
    ] {
      let (code, output) = runCommand(["bench", "S1", "--track", track, "--frames", "1"])
      #expect(code == 64, "\(output.standardError)")
      #expect(
        output.standardError.contains(
          "--track sets the camera track of B1…B6: name one of them too"),
        "\(output.standardError)")
      #expect(output.standardOutput.isEmpty, "\(output.standardOutput)")
    }
  }

  @Test("participant ids: A … Z, then A1 …")
  func ids() {
    #expect((0..<3).map(CollaborationBench.participantID) == ["A", "B", "C"])
    #expect(CollaborationBench.participantID(25) == "Z")
    #expect(CollaborationBench.participantID(26) == "A1")
    #expect(CollaborationBench.participantID(53) == "B2")
  }
}
