import ARTestSupport
import Foundation
import Testing

@testable import ARBatch

@Suite("SHA-256")
struct SHA256Tests {
  /// FIPS 180-4 / NIST CSRC example values ("abc", the 448-bit message, the empty message).
  @Test(
    "the FIPS 180-4 examples",
    arguments: [
      ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
      (
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
      ),
      ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ])
  func examples(message: String, digest: String) {
    #expect(SHA256.hexDigest(of: Array(message.utf8)) == digest)
  }

  @Test("a million 'a's fed in uneven pieces (FIPS 180-4's long example)")
  func million() {
    var hash = SHA256()
    var fed = 0
    var piece = 1
    while fed < 1_000_000 {
      let n = min(piece, 1_000_000 - fed)
      hash.update([UInt8](repeating: UInt8(ascii: "a"), count: n))
      fed += n
      piece = piece * 7 % 1000 + 1
    }
    #expect(hash.hexDigest() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test("a bundled input hashes as sha256sum prints it")
  func agreesWithSha256sum() throws {
    let path = Fixtures.repositoryPath("Scenes/Inputs/tum_fr1_xyz_groundtruth.txt")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
    process.arguments = [path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let expected = String(text.prefix(64))
    let fingerprint = try SceneFingerprint(paths: [path])
    #expect(fingerprint.files.first?.sha256 == expected)
    #expect(
      fingerprint.files.first?.bytes
        == (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int))
    // sceneHash is the hash of "<hex>\n" lines.
    #expect(
      fingerprint.sceneHash == "sha256:" + SHA256.hexDigest(of: Array((expected + "\n").utf8)))
  }

  @Test("a missing recorded camera image is listed as missing; any other missing input refuses")
  func missingCameraImage() throws {
    let gone = "/nonexistent-arsim-input/image.png"
    let fingerprint = try SceneFingerprint(paths: [gone], mayBeMissing: [gone])
    #expect(fingerprint.files.map(\.missing) == [true])
    #expect(fingerprint.files.first?.bytes == 0)
    // sha256sum of no bytes.
    #expect(
      fingerprint.files.first?.sha256
        == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(fingerprint.sceneHash == "sha256:" + SHA256.hexDigest(of: Array("missing\n".utf8)))
    #expect(throws: (any Error).self) { try SceneFingerprint(paths: [gone]) }
  }
}
