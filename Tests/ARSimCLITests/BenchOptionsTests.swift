import ARTestSupport
import Foundation
import Testing

@testable import ARSimCLI

/// `arsim bench --size WxH --spheres N` and the `processor:` line (issues 27 and 31).
@Suite("bench: size, sphere count and processor")
final class BenchOptionsTests {
  private let temporary = TemporaryFolder("bench-options")
  var root: String { temporary.path }

  // Each test gets its own instance: its folder goes when the test ends.
  deinit { temporary.remove() }

  /// Three poses 0.1 s apart: frames 0…6 at 30 frames/s.
  func shortTrack() throws -> String {
    let track = root + "/short.txt"
    let rows = (0..<3).map { i in "\(i * 100_000_000) 1 0 0 0 0 1 0 0 0 0 1 0" }
    try Array((rows.joined(separator: "\n") + "\n").utf8).withUnsafeBytes {
      try Data($0).write(to: URL(fileURLWithPath: track))
    }
    return track
  }

  @Test("--size and --spheres set the output size and the load; the lines outside checks read stay")
  func sizeAndSpheres() throws {
    let (code, output) = runCommand([
      "bench", "B1", "--frames", "2", "--size", "320x240", "--spheres", "37",
      "--track", try shortTrack(), "--out", root + "/bench",
    ])
    #expect(code == 0, "\(output.standardError)")
    let text = output.standardOutput
    #expect(text.contains("B1 320×240, 2 frames"))
    #expect(text.contains("spheres in view mean 37.0 (min 37)"))
    #expect(text.contains("median ms/frame: sceneUpdate"))
    #expect(text.contains(" render "))
    #expect(text.contains("CPU: "))
    #expect(text.contains("end to end: "))
    // The frame written has the size asked for (IHDR width and height, big-endian).
    let png = try Data(contentsOf: URL(fileURLWithPath: root + "/bench/B1/frame_00000.png"))
    #expect(Array(png[16..<24]) == [0, 0, 1, 64, 0, 0, 0, 240])
  }

  @Test(
    "sizes smaller than a sphere's margin render (a newcomer's --size 1x1 trapped)",
    arguments: ["1x1", "1000x2", "2x1000", "10x1"])
  func tinySizes(size: String) throws {
    let (code, output) = runCommand([
      "bench", "B1", "--frames", "2", "--size", size, "--spheres", "60",
      "--track", try shortTrack(), "--out", root + "/bench-\(size)",
    ])
    #expect(code == 0, "\(output.standardError)")
    let (width, height) = (Int(size.split(separator: "x")[0])!, Int(size.split(separator: "x")[1])!)
    let png = try Data(contentsOf: URL(fileURLWithPath: root + "/bench-\(size)/B1/frame_00000.png"))
    #expect(
      Array(png[16..<24]) == [
        0, 0, UInt8(width >> 8), UInt8(width & 255), 0, 0, UInt8(height >> 8), UInt8(height & 255),
      ])
  }

  @Test(
    "--size and --spheres refuse malformed values (64)",
    arguments: [
      ["--size", "320"], ["--size", "0x10"], ["--size", "20000x10"], ["--size", "axb"],
      ["--size", "16384x16384"], ["--spheres", "0"],
    ])
  func refused(option: [String]) {
    let (code, output) = runCommand(["bench", "B3", "--frames", "1"] + option)
    #expect(code == 64, "\(output.standardError)")
    #expect(output.standardError.contains(option[0]))
  }

  @Test("--size over the image limit names the option, not the bench's temporary scene")
  func sizeOverLimit() {
    let (code, output) = runCommand(["bench", "B1", "--frames", "1", "--size", "16384x8192"])
    #expect(code == 64)
    #expect(
      output.standardError.contains(
        "--size '16384x8192': 134217728 pixels, over the limit of 64 Mi pixels an image"),
      "\(output.standardError)")
    #expect(!output.standardError.contains("arsim-bench-"))
  }

  @Test("/proc/cpuinfo's first processor: vendor, model name, family, model, clock")
  func cpuinfo() {
    let text = """
      processor\t: 0
      vendor_id\t: GenuineIntel
      cpu family\t: 6
      model\t\t: 143
      model name\t: Intel(R) Xeon(R) Platinum 8488C
      cpu MHz\t\t: 2000.000

      processor\t: 1
      vendor_id\t: OtherVendor
      """
    let description = ProcessorDescription.parse(cpuinfo: text)
    #expect(
      description
        == ProcessorDescription(
          vendor: "GenuineIntel", modelName: "Intel(R) Xeon(R) Platinum 8488C", family: "6",
          model: "143", megahertz: 2000))
    #expect(
      description.line(cores: 2, rasterizer: .avx512, pngFilter: "avx2")
        == "processor: Intel(R) Xeon(R) Platinum 8488C (vendor GenuineIntel, family 6 model 143), "
        + "2 cores, clock 2000 MHz; vector extensions used: rasterizer avx512, PNG filter avx2")
    // A virtual machine without a clock line.
    let noClock = ProcessorDescription.parse(
      cpuinfo: "vendor_id : AuthenticAMD\nmodel name : AMD EPYC\n")
    #expect(noClock.megahertz == nil)
    #expect(
      noClock.line(cores: 2, rasterizer: .avx2, pngFilter: "avx2").contains(
        "clock not given by /proc/cpuinfo"))
  }

  @Test("bench prints the processor line")
  func processorLine() throws {
    let (code, output) = runCommand([
      "bench", "B3", "--frames", "1", "--size", "64x48", "--spheres", "3",
      "--track", try shortTrack(), "--out", root + "/bench",
    ])
    #expect(code == 0, "\(output.standardError)")
    #expect(output.standardOutput.contains("processor: "))
    #expect(output.standardOutput.contains("vector extensions used: rasterizer "))
  }
}
