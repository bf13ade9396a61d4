import ARCameraImages
import ARSupport
import ARTestSupport
import Foundation
import Testing

@Suite struct CameraImageListTests {
  @Test("TUM rgb.txt: comments skipped, names relative to the list's folder, times as written")
  func tum() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let path = folder.write(
      "# color images\n# file: 'rgbd_dataset_freiburg1_xyz.bag'\n# timestamp filename\n"
        + "1305031102.175304 rgb/1305031102.175304.png\r\n1305031102.211214 rgb/1305031102.211214.png\n",
      to: "rgb.txt")
    let list = try CameraImageList.read(path: path, format: .tum)
    #expect(list.entries.map(\.time) == [1305031102.175304, 1305031102.211214])
    #expect(
      list.entries.map(\.path) == [
        folder.path + "/rgb/1305031102.175304.png", folder.path + "/rgb/1305031102.211214.png",
      ])
    #expect(list.entries.map(\.line) == [4, 5])
    #expect(list.warnings.isEmpty)
  }

  @Test("EuRoC data.csv: integer nanoseconds, names in data/ beside the list")
  func euroc() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let path = folder.write(
      "#timestamp [ns],filename\n1403636579763555584,1403636579763555584.png\n"
        + "1403636579813555456,1403636579813555456.png\n", to: "cam0/data.csv")
    let list = try CameraImageList.read(path: path, format: .euroc)
    // 1403636579 s + 763555584 ns, each part exact before the sum.
    #expect(list.entries[0].time == 1403636579 + 0.763555584)
    #expect(list.entries[1].time == 1403636579 + 0.813555456)
    #expect(list.entries[0].path == folder.path + "/cam0/data/1403636579763555584.png")
  }

  @Test("times file: names relative to the given folder")
  func times() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let path = folder.write("0.0 a.png\n0.5 b.jpg\n", to: "times.txt")
    let list = try CameraImageList.read(
      path: path, format: .times, folder: folder.path + "/images")
    #expect(
      list.entries.map(\.path) == [folder.path + "/images/a.png", folder.path + "/images/b.jpg"])
    #expect(list.entries.map(\.time) == [0, 0.5])
  }

  @Test("a time before the previous line's is sorted in, with a warning naming the line")
  func outOfOrder() throws {
    let list = try CameraImageList.parse(
      Array("1.0 a.png\n3.0 c.png\n2.0 b.png\n".utf8), file: "t.txt", format: .times, base: "/x")
    #expect(list.entries.map(\.time) == [1, 2, 3])
    #expect(list.entries.map(\.line) == [1, 3, 2])
    #expect(list.warnings == ["t.txt:3: time 2.0 is before line 2's 3.0; sorted in"])
  }

  @Test("a repeated time keeps its first line; the warning names the ignored one")
  func duplicated() throws {
    let list = try CameraImageList.parse(
      Array("1.0 a.png\n1.0 b.png\n2.0 c.png\n".utf8), file: "t.txt", format: .times, base: "/x")
    #expect(list.entries.map(\.path) == ["/x/a.png", "/x/c.png"])
    #expect(list.warnings == ["t.txt:2: time 1.0 repeats line 1's; line 2 ignored"])
  }

  @Test("times a Double no longer resolves to 0.1 ms are a warning, as a track's; usual ones not")
  func coarseTimes() throws {
    let far = try CameraImageList.parse(
      Array("1e300 a.png\n".utf8), file: "t.txt", format: .times, base: "/x")
    #expect(
      far.warnings == [
        "t.txt: the times reach 1e+300 s, where a Double resolves only \((1e300).ulp) s: images "
          + "closer together than that fall on one time; subtract an offset from the times"
      ], "\(far.warnings)")
    // A Unix time (TUM's 1.3 · 10⁹ s) resolves to 2.4 · 10⁻⁷ s: no warning; 2⁴⁰ s has an ulp
    // of 2.4 · 10⁻⁴ s, past 0.1 ms.
    let unix = try CameraImageList.parse(
      Array("1305031102.175304 a.png\n".utf8), file: "t.txt", format: .times, base: "/x")
    #expect(unix.warnings.isEmpty)
    let past = try CameraImageList.parse(
      Array("-1099511627776 a.png\n".utf8), file: "t.txt", format: .times, base: "/x")
    #expect(past.warnings.count == 1)
  }

  @Test(
    "names leading outside the folder are refused",
    arguments: ["../secret.png", "/etc/passwd", "rgb/../../x.png"])
  func outside(name: String) throws {
    #expect {
      try CameraImageList.parse(
        Array("1.0 ok.png\n2.0 \(name)\n".utf8), file: "t.txt", format: .times, base: "/x")
    } throws: { error in
      let error = error as? InputError
      return error?.location.line == 2 && error?.location.field == "filename"
        && error?.reason.contains("refused") == true
    }
  }

  @Test("a link inside the folder that leads out of it is refused")
  func linkOutside() throws {
    let folder = TemporaryFolder()
    let other = TemporaryFolder()
    defer {
      folder.remove()
      other.remove()
    }
    let target = other.write([1, 2, 3], to: "outside.png")
    try FileManager.default.createDirectory(
      atPath: folder.path + "/images", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: folder.path + "/images/link.png", withDestinationPath: target)
    let path = folder.write("1.0 link.png\n", to: "times.txt")
    #expect(throws: InputError.self) {
      try CameraImageList.read(path: path, format: .times, folder: folder.path + "/images")
    }
  }

  @Test("malformed lines name file, line and field")
  func malformed() {
    func failure(_ text: String, _ format: CameraImageListFormat) -> InputError? {
      do {
        _ = try CameraImageList.parse(Array(text.utf8), file: "l", format: format, base: "/x")
        return nil
      } catch { return error as? InputError }
    }
    #expect(failure("1.0\n", .tum)?.location.field == "filename")
    #expect(failure("abc a.png\n", .tum)?.location.field == "timestamp")
    #expect(failure("nan a.png\n", .tum)?.location.field == "timestamp")
    #expect(failure("1.5,a.png\n", .euroc)?.location.field == "timestamp [ns]")
    #expect(failure("1 a.png b.png\n", .tum)?.location.line == 1)
    #expect(failure("# nothing\n", .tum)?.reason == "no images listed")
  }
}
