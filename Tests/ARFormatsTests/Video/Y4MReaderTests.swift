import ARFormats
import ARSupport
import ARTestSupport
import Foundation
import Testing

@Suite struct Y4MReaderTests {
  let fixture = Fixtures.path("video/rav1e_small_input_64x64.y4m")
  /// The fixture's header line is 57 bytes with its newline; each frame is 6 + 6144 bytes.
  let firstFrameOffset = 57
  let frameStride = 6150

  @Test("the 64×64 fixture gives 5 frames of 6144 bytes at 25 fps")
  func fixtureFrames() throws {
    let reader = try Y4MReader(path: fixture)
    #expect(reader.header.width == 64 && reader.header.height == 64)
    #expect(reader.header.frameRate == FrameRate(numerator: 25, denominator: 1))
    #expect(reader.header.colorSpace == .c420jpeg)
    #expect(reader.header.range == .limited)
    #expect(reader.header.pixelAspect == (16, 9))
    #expect(reader.header.otherFields == ["XYSCSS=420JPEG"])
    var offsets: [Int] = []
    while let frame = try reader.nextFrame() {
      #expect(frame.planes.count == 6144)
      #expect(frame.index == offsets.count)
      offsets.append(frame.byteOffset)
    }
    #expect(offsets == (0..<5).map { firstFrameOffset + $0 * frameStride })
    #expect(reader.frameCount == 5)
    #expect(try reader.nextFrame() == nil)
  }

  @Test("random access returns the same frames as sequential reading, and nil past the end")
  func randomAccess() throws {
    let sequential = try Y4MReader(path: fixture)
    var frames: [Y4MFrame] = []
    while let f = try sequential.nextFrame() { frames.append(f) }
    let reader = try Y4MReader(path: fixture)
    for i in [3, 1, 4, 0, 2, 2] {
      #expect(try reader.frame(at: i) == frames[i])
    }
    #expect(try reader.frame(at: 5) == nil)
    #expect(try reader.frame(at: -1) == nil)
    #expect(try reader.frame(at: 0) == frames[0])
  }

  @Test("scan counts frames and rewinds to frame 0")
  func scan() throws {
    let reader = try Y4MReader(path: fixture)
    #expect(try reader.scan() == 5)
    #expect(try reader.nextFrame()?.index == 0)
  }

  @Test("a header with no frame is a stream of 0 frames, scanned and read again without a trap")
  func noFrames() throws {
    let reader = try Y4MReader(path: Y4MTestFile.write(Array("YUV4MPEG2 W2 H2 F25:1\n".utf8)))
    #expect(try reader.scan() == 0)
    #expect(try reader.scan() == 0)
    #expect(try reader.frame(at: 0) == nil)
    #expect(try reader.nextFrame() == nil)
  }

  @Test("a truncated last frame names the file, the byte offset of its planes and the frame")
  func truncated() throws {
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture)))
    let path = Y4MTestFile.write(Array(bytes.dropLast(100)))
    let planesOffset = firstFrameOffset + 4 * frameStride + 6  // 24663
    let expected = Y4MError.truncatedFrame(
      InputLocation(file: path, byteOffset: planesOffset, field: "frame 4"),
      expectedBytes: 6144, foundBytes: 6044)

    let reader = try Y4MReader(path: path)
    for _ in 0..<4 { _ = try reader.nextFrame() }
    #expect(throws: expected) { try reader.nextFrame() }
    #expect(throws: expected) { try Y4MReader(path: path).scan() }
    #expect(
      expected.description
        == "\(path) (byte 24663): field 'frame 4': truncated frame: expected 6144 bytes of planes, found 6044"
    )
  }

  @Test("an interlaced header is an unsupported-stream error at the I field")
  func interlaced() throws {
    let path = Y4MTestFile.write(Array("YUV4MPEG2 W4 H2 F25:1 It C420jpeg\n".utf8))
    #expect(
      throws: Y4MError.unsupported(
        InputLocation(file: path, byteOffset: 22, field: "I"),
        "interlacing 'It': only progressive frames ('Ip') are supported")
    ) { try Y4MReader(path: path) }
  }

  @Test("an unknown colour space is an unsupported-stream error at the C field")
  func unknownColorSpace() throws {
    let path = Y4MTestFile.write(Array("YUV4MPEG2 W4 H2 F25:1 C444\nFRAME\n".utf8))
    do {
      _ = try Y4MReader(path: path)
      Issue.record("expected an error")
    } catch {
      #expect(error.location == InputLocation(file: path, byteOffset: 22, field: "C"))
      #expect(error.description.contains("colour space 'C444'"))
      #expect(error.description.contains("420jpeg, 420paldv, 420mpeg2, 420, mono"))
      #expect(error.kind == .badData)
    }
  }

  @Test("header errors: signature, missing fields, bad numbers, colour range")
  func headerErrors() throws {
    let cases: [(String, String, Int)] = [
      ("YUV4MPEG W4 H2 F25:1\n", "signature", 0),
      ("YUV4MPEG2 W4 F25:1\n", "H", 18),
      ("YUV4MPEG2 W4 H2\n", "F", 15),
      ("YUV4MPEG2 W0 H2 F25:1\n", "W", 10),
      ("YUV4MPEG2 W4 H2 F25:0\n", "F", 16),
      ("YUV4MPEG2 W4 H2 F25:1 XCOLORRANGE=WIDE\n", "XCOLORRANGE", 22),
      ("YUV4MPEG2 W4 H2 F25:1", "header line", 0),
    ]
    for (text, field, offset) in cases {
      let path = Y4MTestFile.write(Array(text.utf8))
      do {
        _ = try Y4MReader(path: path)
        Issue.record("expected an error for \(text)")
      } catch {
        #expect(error.location.field == field, "\(text)")
        #expect(error.location.byteOffset == offset, "\(text)")
      }
    }
  }

  @Test("a missing file is a missing-input error")
  func missingFile() {
    do {
      _ = try Y4MReader(path: "/nonexistent/video.y4m")
      Issue.record("expected an error")
    } catch {
      #expect(error.kind == .missingInput)
      #expect(error.location.file == "/nonexistent/video.y4m")
    }
  }

  @Test("defaults and extensions: C absent is 420jpeg, XCOLORRANGE=FULL, mono, FRAME parameters")
  func headerFields() throws {
    let bytes =
      Array("YUV4MPEG2 W3 H1 F30000:1001 Cmono XCOLORRANGE=FULL\nFRAME Ixyz\n".utf8)
      + [1, 2, 3]
    let reader = try Y4MReader(path: Y4MTestFile.write(bytes))
    #expect(reader.header.colorSpace == .mono)
    #expect(reader.header.range == .full)
    #expect(reader.header.frameRate.description == "30000:1001")
    let frame = try #require(try reader.nextFrame())
    #expect(frame.planes == [1, 2, 3])
    #expect(frame.parameters == ["Ixyz"])

    let plain = try Y4MReader(path: Y4MTestFile.write(Array("YUV4MPEG2 W3 H3 F1:1\n".utf8)))
    #expect(plain.header.colorSpace == .c420jpeg)
    #expect(plain.header.range == .limited)
    #expect(plain.header.frameByteCount == 9 + 2 * 4)  // odd sizes round chroma up
    #expect(try plain.nextFrame() == nil)
    #expect(plain.frameCount == 0)
  }

  @Test("a stray byte instead of FRAME is a bad-marker error at its offset")
  func badMarker() throws {
    let bytes = Array("YUV4MPEG2 W1 H1 Cmono F1:1\nFRAMEX\n".utf8) + [0]
    let reader = try Y4MReader(path: Y4MTestFile.write(bytes))
    do {
      _ = try reader.nextFrame()
      Issue.record("expected an error")
    } catch {
      #expect(error.location.byteOffset == 27)
      #expect(error.description.contains("expected 'FRAME'"))
    }
  }

  @Test("a 2000-frame synthetic file is read frame by frame")
  func manyFrames() throws {
    let path = try Y4MTestFile.writeSynthetic(width: 32, height: 32, frames: 2000)
    let reader = try Y4MReader(path: path)
    var count = 0
    while let frame = try reader.nextFrame() {
      #expect(frame.planes[0] == UInt8(count % 256) && frame.planes[1023] == UInt8(count % 256))
      #expect(frame.planes[1024] == 100 && frame.planes[1535] == 200)
      count += 1
    }
    #expect(count == 2000)
    #expect(try reader.frame(at: 1999)?.planes[0] == UInt8(1999 % 256))
    #expect(try reader.frame(at: 257)?.planes[0] == 1)
  }

  /// Peak resident memory of this process in kB (`VmHWM` of /proc/self/status), if known.
  static func peakResidentKilobytes() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return nil
    }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      return Int(line.split(separator: " ")[1])
    }
    return nil
  }

  @Test(
    "reading a ~900 MB file keeps the peak resident memory growth under 50 MB",
    .enabled(if: ProcessInfo.processInfo.environment["ARSIM_Y4M_MEMORY_PROBE"] != nil))
  func largeFileMemory() throws {
    let path = try Y4MTestFile.writeSynthetic(width: 1920, height: 1080, frames: 300)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let before = try #require(Self.peakResidentKilobytes())
    let reader = try Y4MReader(path: path)
    #expect(try reader.scan() == 300)
    var count = 0
    let conversion = YCbCrConversion(range: .limited)
    while let frame = try reader.nextFrame() {
      if count % 100 == 0 { _ = conversion.texture(from: frame) }
      count += 1
    }
    let after = try #require(Self.peakResidentKilobytes())
    print("y4m memory probe: frames \(count), VmHWM before \(before) kB, after \(after) kB")
    #expect(count == 300)
    #expect(after - before < 50_000)
  }
}
