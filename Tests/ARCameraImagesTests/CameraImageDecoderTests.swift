import ARCameraImages
import ARRender
import ARRenderCore
import ARSupport
import Foundation
import Testing

let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("__Fixtures__").path

@Suite struct CameraImageDecoderTests {
  @Test("JPEG through libjpeg-turbo: within 1 level of OpenCV's own decode of the same file")
  func jpeg() throws {
    let image = try CameraImageDecoder.decode(contentsOf: fixtures + "/gradient.jpg")
    let reference = try Image(contentsOfPNG: fixtures + "/gradient-jpg-decoded-by-opencv.png")
    #expect(image.width == 32 && image.height == 24)
    let differences = zip(image.pixels, reference.pixels).map { abs(Int($0) - Int($1)) }
    #expect(differences.max() ?? 99 <= 1)
    #expect(stride(from: 3, to: image.pixels.count, by: 4).allSatisfy { image.pixels[$0] == 255 })
  }

  @Test("PNG by its first bytes, whatever the name")
  func png() throws {
    let bytes = try FileIO.read(fixtures + "/gradient.png")
    let image = try CameraImageDecoder.decode(bytes, file: "named.jpg")
    #expect(image == (try Image(pngData: bytes)))
    // Pixel (3, 2) of the fixture: R = 8·3, G = 10·2, B = 5·5.
    #expect(Array(image.pixels[(2 * 32 + 3) * 4..<(2 * 32 + 3) * 4 + 3]) == [24, 20, 25])
  }

  @Test(
    "truncated, corrupt and unknown files fail naming the file",
    arguments: ["truncated.jpg", "corrupt.jpg", "truncated.png"])
  func broken(name: String) throws {
    #expect {
      try CameraImageDecoder.decode(contentsOf: fixtures + "/" + name)
    } throws: { error in
      (error as? any LocatedError)?.location.file == fixtures + "/" + name
    }
  }

  @Test("neither PNG nor JPEG")
  func unknown() {
    #expect(throws: InputError.self) {
      try CameraImageDecoder.decode(Array("GIF89a".utf8), file: "x.gif")
    }
  }

  @Test("a huge image is refused from its header, before any pixel is decoded")
  func huge() throws {
    // A PNG signature and IHDR of 20000 × 20000.
    var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    png += Array("IHDR".utf8) + [0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20, 8, 6, 0, 0, 0, 0, 0, 0, 0]
    // A JPEG whose frame header says 60000 × 60000 (SOF0), then a scan header.
    let jpeg: [UInt8] =
      [0xFF, 0xD8, 0xFF, 0xC0, 0, 11, 8, 0xEA, 0x60, 0xEA, 0x60, 1, 1, 0x11, 0]
      + [0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 63, 0, 0xFF, 0xD9]
    for (bytes, name) in [(png, "huge.png"), (jpeg, "huge.jpg")] {
      #expect {
        try CameraImageDecoder.decode(bytes, file: name)
      } throws: { error in
        (error as? InputError)?.reason.contains("over the limit (16384 a side") == true
      }
    }
  }

  @Test("an image of 0×0 pixels is said to be empty, not over the limit")
  func empty() {
    // A PNG signature and IHDR of 0 × 0 (was: "image of 0×0 pixels is over the limit").
    var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    png += Array("IHDR".utf8) + [0, 0, 0, 0, 0, 0, 0, 0, 8, 6, 0, 0, 0, 0, 0, 0, 0]
    #expect {
      try CameraImageDecoder.decode(png, file: "zero.png")
    } throws: { error in
      "\(error)" == "zero.png: image of 0×0 pixels is empty"
    }
  }
}
