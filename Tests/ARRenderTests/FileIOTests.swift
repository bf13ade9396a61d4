import ARRender
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Atomic writes must replace regular files only: a symbolic link is written through, a FIFO,
/// socket, device or folder is refused, never renamed over.
@Suite("FileIO atomic writes and file identity")
struct FileIOTests {
  let root: String

  init() throws {
    root = NSTemporaryDirectory() + "arsim-fileio-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
  }

  /// The `S_IFMT` bits of `path` itself (links not followed), or nil when it is missing.
  func type(_ path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode & S_IFMT
  }

  @Test("a symbolic link is written through: the link stays, the file it names is replaced")
  func symbolicLink() throws {
    try FileIO.writeAtomically(Array("old".utf8), to: root + "/target.txt")
    try FileManager.default.createSymbolicLink(
      atPath: root + "/link.txt", withDestinationPath: "target.txt")
    try FileIO.writeAtomically(Array("new".utf8), to: root + "/link.txt")
    #expect(type(root + "/link.txt") == S_IFLNK)
    #expect(try FileIO.read(root + "/target.txt") == Array("new".utf8))
    #expect(try FileIO.destination(for: root + "/link.txt") == root + "/target.txt")
  }

  @Test("a dangling symbolic link creates the file it names")
  func danglingLink() throws {
    try FileManager.default.createSymbolicLink(
      atPath: root + "/link.txt", withDestinationPath: root + "/made.txt")
    try FileIO.writeAtomically(Array("x".utf8), to: root + "/link.txt")
    #expect(type(root + "/link.txt") == S_IFLNK)
    #expect(try FileIO.read(root + "/made.txt") == Array("x".utf8))
  }

  @Test("a FIFO, a folder and a link to a FIFO are refused and left as they are")
  func specialFiles() throws {
    let fifo = root + "/pipe"
    #expect(mkfifo(fifo, 0o644) == 0)
    try FileManager.default.createDirectory(
      atPath: root + "/folder", withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(atPath: root + "/to-pipe", withDestinationPath: fifo)
    for (path, kind) in [
      (fifo, "a FIFO"), (root + "/folder", "a folder"), (root + "/to-pipe", "a FIFO"),
    ] {
      let error = #expect(throws: InputError.self) {
        try FileIO.writeAtomically([1], to: path)
      }
      #expect(error?.kind == .cannotCreate)
      #expect(error?.location.file == path)
      #expect(error?.reason.contains("is not a regular file") == true)
      #expect(error?.reason.contains(kind) == true, "\(error?.reason ?? "")")
    }
    #expect(type(fifo) == S_IFIFO)
    #expect(type(root + "/folder") == S_IFDIR)
    #expect(type(root + "/to-pipe") == S_IFLNK)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: root)
    #expect(!leftovers.contains { $0.contains(FileIO.temporarySuffix) })
  }

  @Test("a symbolic link loop is an error, not a hang")
  func linkLoop() throws {
    try FileManager.default.createSymbolicLink(atPath: root + "/a", withDestinationPath: "b")
    try FileManager.default.createSymbolicLink(atPath: root + "/b", withDestinationPath: "a")
    #expect(throws: InputError.self) { try FileIO.writeAtomically([1], to: root + "/a") }
  }

  @Test("identity: two spellings and a link of one file are the same; another file is not")
  func identity() throws {
    try FileIO.writeAtomically([1], to: root + "/x")
    try FileIO.writeAtomically([1], to: root + "/y")
    try FileManager.default.createSymbolicLink(atPath: root + "/l", withDestinationPath: "x")
    let x = FileIO.identity(of: root + "/x")
    #expect(x != nil)
    #expect(FileIO.identity(of: root + "/./y/../x") == nil)  // y is not a folder
    #expect(FileIO.identity(of: root + "/../" + (root as NSString).lastPathComponent + "/x") == x)
    #expect(FileIO.identity(of: root + "/l") == x)
    #expect(FileIO.identity(of: root + "/y") != x)
    #expect(FileIO.identity(of: root + "/missing") == nil)
  }
}
