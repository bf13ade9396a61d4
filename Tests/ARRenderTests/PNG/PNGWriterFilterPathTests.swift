import ARTestSupport
import CPNGWriter
import Testing

@testable import ARRender

/// The UP filter's paths (`arsim_pngw_set_filter_path`: 0 scalar, 1 SSSE3, 2 AVX2, 3 AVX-512)
/// write the same PNG file, byte for byte: noise at widths around the vectors' 8 and 16 pixels
/// and the run finder's 64 bytes, one pixel, translucent images (the automatic layout's restart
/// as RGBA), and rendered frames from the repository, through both deflaters.
@Suite("PNG writer: the same bytes on every filter path")
struct PNGWriterFilterPathTests {
  /// Whether this processor runs the AVX-512 filter (BW, VBMI, VNNI, with the OS saving ZMM).
  static let hasAVX512: Bool = {
    var room = [UInt8](repeating: 0, count: 64)
    let pixel: [UInt8] = [0, 0, 0, 255]
    return arsim_pngw_up_rgbx(pixel, nil, 0, &room, 3) == 3
  }()

  static func images() throws -> [(String, Image)] {
    var images: [(String, Image)] = []
    for width in [1, 2, 7, 15, 16, 17, 31, 47, 48, 63, 64, 65, 127, 128, 333, 1921] {
      let image = PNGWriterFoldedChecksTests.random(width: width, height: 5, seed: UInt64(width))
      images.append(("noise \(width) × 5", image))
    }
    images.append(("1 × 1", PNGWriterFoldedChecksTests.random(width: 1, height: 1, seed: 1)))
    images.append(("frame-like", PNGWriterTests.frameLike(width: 700, height: 200, opaque: true)))
    var translucent = PNGWriterTests.frameLike(width: 333, height: 77, opaque: false)
    for i in stride(from: 3, to: translucent.pixels.count, by: 4) {
      translucent.pixels[i] = UInt8(i % 251)
    }
    images.append(("translucent", translucent))
    // Opaque but for one pixel in the last strip: rows on the vector path, then the restart.
    var late = PNGWriterTests.frameLike(width: 700, height: 200, opaque: true)
    late.pixels[(199 * 700 + 699) * 4 + 3] = 254
    images.append(("one translucent pixel last", late))
    // Rendered frames: widths a multiple of 64 (960), of 8 but not 16 (968, 360), odd (765).
    for name in [
      "Documentation/Images/desk-room.png", "Documentation/Images/recorded-desk.png",
      "Documentation/Images/arkit-cat.png", "Documentation/Images/report.png",
      "Tests/RenderGoldenTests/__Goldens__/SceneGoldenTests/tum-measure-room-200.png",
    ] {
      images.append((name, try Image(contentsOfPNG: Fixtures.repositoryPath(name))))
    }
    return images
  }

  /// Each image's bytes on `paths`, compared with the scalar path's (path 0).
  static func expectSameBytes(paths: [Int32]) throws {
    defer { arsim_pngw_set_filter_path(-1) }
    for (name, image) in try images() {
      for deflater in [PNGEncoder.Deflater.runLengthHuffman, .isal] {
        let options = PNGEncoder(deflater: deflater)
        #expect(arsim_pngw_set_filter_path(0) == 0)
        let reference = try image.pngData(options: options)
        #expect(try Image(pngData: reference) == image, "\(name), \(deflater)")
        for path in paths {
          let used = arsim_pngw_set_filter_path(path)
          #expect(used == path, "\(name): path \(path) not run")
          #expect(
            try image.pngData(options: options) == reference, "\(name), \(deflater), path \(used)")
        }
      }
    }
  }

  @Test("SSSE3 and AVX2 paths write the scalar path's bytes (those this processor runs)")
  func olderPaths() throws {
    var room = [UInt8](repeating: 0, count: 64)
    let best = arsim_pngw_up_rgbx([0, 0, 0, 255], nil, 0, &room, 2)
    try Self.expectSameBytes(paths: best >= 1 ? Array(1...best) : [])
  }

  @Test(
    "the AVX-512 path writes the scalar, SSSE3 and AVX2 paths' bytes",
    .enabled(if: hasAVX512, "this processor has no AVX-512 BW, VBMI and VNNI: path 3 not run"))
  func avx512Path() throws {
    try Self.expectSameBytes(paths: [1, 2, 3])
  }
}
