import ARSupport
import ARTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `flock` locks belong to the open file, which a forked child shares until it closes its copy:
/// releasing must unlock, not only close, or the folder stays locked while any child lives.
@Suite("Output folder lock and forked children")
struct OutputFolderForkTests {
  @Test("a lock released while a forked child still holds its descriptor can be taken again")
  func releaseUnlocksForChildren() throws {
    let temporary = TemporaryFolder("fork-lock")
    defer { temporary.remove() }
    let folder = temporary.path
    let output = try OutputFolder(folder)
    let lock = try output.lock(waiting: false)
    var gate: [Int32] = [0, 0]
    try #require(pipe(&gate) == 0)
    let child = fork()
    if child == 0 {
      // The child keeps every inherited descriptor and waits (at most 10 s) for the parent.
      close(gate[1])
      var entry = pollfd(fd: gate[0], events: Int16(POLLIN), revents: 0)
      _ = poll(&entry, 1, 10_000)
      _exit(0)
    }
    try #require(child > 0)
    lock.release()
    let again = Result { try output.lock(waiting: false) }
    close(gate[1])
    close(gate[0])
    var status: Int32 = 0
    waitpid(child, &status, 0)
    #expect(throws: Never.self) { try again.get() }
    try? again.get().release()
  }
}
