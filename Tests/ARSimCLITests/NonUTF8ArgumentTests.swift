import ARTestSupport
import Foundation
import Testing

/// An argument that is not UTF-8 is refused (64) before any command runs: Swift's
/// `CommandLine.arguments` would replace its bytes by U+FFFD, so a live token `\xff` became
/// three other bytes and the peer timed out (a newcomer's finding). The built binary, through
/// /bin/sh, which passes the raw byte.
@Suite struct NonUTF8ArgumentTests {
  @Test("a token byte 0xFF is a usage error naming the argument; valid UTF-8 passes")
  func refused() throws {
    let arsim = BuiltArsim.path
    try #require(FileManager.default.fileExists(atPath: arsim), "build arsim first: \(arsim)")
    func run(_ script: String) throws -> (Int32, String) {
      try BuiltArsim.run("/bin/sh", ["-c", script, "sh", arsim], seconds: 30)
    }
    let (code, message) = try run(
      #""$1" receive --port 0 --peer-token "$(printf '\377')" --my-token rx --out /nonexistent/x"#)
    #expect(code == 64, "\(message)")
    #expect(message.contains("argument 5 is not valid UTF-8"), "\(message)")
    // A token of valid UTF-8 (é) gets past the check to the command's own (a missing folder).
    let (other, text) = try run(
      #""$1" compare "$(printf '\303\251')" /nonexistent/y"#)
    #expect(other != 64 && !text.contains("UTF-8"), "\(text)")
  }
}
