import ARRender
import ARTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Atomic writes must replace regular files only: a symbolic link at the output's name, a FIFO,
/// socket, device or folder is refused, never written through or renamed over.
@Suite("FileIO atomic writes and file identity")
struct FileIOTests {
  let root: String

  init() throws {
    root = TemporaryFolder("fileio").path
  }

  /// The `S_IFMT` bits of `path` itself (links not followed), or nil when it is missing.
  func type(_ path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode & S_IFMT
  }

  @Test("a symbolic link at the output's name is refused; the file it names is untouched")
  func symbolicLink() throws {
    try FileIO.writeAtomically(Array("old".utf8), to: root + "/target.txt")
    try FileManager.default.createSymbolicLink(
      atPath: root + "/link.txt", withDestinationPath: "target.txt")
    let error = #expect(throws: InputError.self) {
      try FileIO.writeAtomically(Array("new".utf8), to: root + "/link.txt")
    }
    #expect(error?.kind == .cannotCreate)
    #expect(error?.location.file == root + "/link.txt")
    #expect(error?.reason.contains("is a symbolic link") == true, "\(error?.reason ?? "")")
    #expect(type(root + "/link.txt") == S_IFLNK)
    #expect(try FileIO.read(root + "/target.txt") == Array("old".utf8))
  }

  @Test("a dangling symbolic link is refused and creates nothing")
  func danglingLink() throws {
    try FileManager.default.createSymbolicLink(
      atPath: root + "/link.txt", withDestinationPath: root + "/made.txt")
    #expect(throws: InputError.self) {
      try FileIO.writeAtomically(Array("x".utf8), to: root + "/link.txt")
    }
    #expect(type(root + "/link.txt") == S_IFLNK)
    #expect(type(root + "/made.txt") == nil)
  }

  @Test("links in the folder's own path are followed (an output folder on another disk)")
  func linkedFolder() throws {
    try FileManager.default.createDirectory(
      atPath: root + "/real", withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(
      atPath: root + "/Output", withDestinationPath: "real")
    try FileIO.writeAtomically(Array("x".utf8), to: root + "/Output/file.txt")
    #expect(type(root + "/real/file.txt") == S_IFREG)
    #expect(try FileIO.read(root + "/real/file.txt") == Array("x".utf8))
  }

  @Test("an open OutputFolder keeps writing into its folder when the path is swapped for a link")
  func folderSwap() throws {
    try FileManager.default.createDirectory(
      atPath: root + "/out", withIntermediateDirectories: false)
    try FileManager.default.createDirectory(
      atPath: root + "/elsewhere", withIntermediateDirectories: false)
    let folder = try OutputFolder(root + "/out")
    // Between the open and the write, another user renames the folder and plants a link.
    #expect(rename(root + "/out", root + "/moved") == 0)
    try FileManager.default.createSymbolicLink(
      atPath: root + "/out", withDestinationPath: "elsewhere")
    try folder.writeAtomically(Array("x".utf8), name: "trace.jsonl")
    #expect(try FileIO.read(root + "/moved/trace.jsonl") == Array("x".utf8))
    #expect(type(root + "/elsewhere/trace.jsonl") == nil)
  }

  @Test("a line file is not opened through a link at its name")
  func lineFileLink() throws {
    try FileIO.writeAtomically(Array("keep".utf8), to: root + "/victim")
    try FileManager.default.createSymbolicLink(
      atPath: root + "/trace.jsonl", withDestinationPath: "victim")
    let folder = try OutputFolder(root)
    #expect(throws: InputError.self) { _ = try folder.openTruncated("trace.jsonl") }
    #expect(try FileIO.read(root + "/victim") == Array("keep".utf8))
  }

  @Test("a FIFO, a folder and a link to a FIFO are refused and left as they are")
  func specialFiles() throws {
    let fifo = root + "/pipe"
    #expect(mkfifo(fifo, 0o644) == 0)
    try FileManager.default.createDirectory(
      atPath: root + "/folder", withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(atPath: root + "/to-pipe", withDestinationPath: fifo)
    for (path, reason) in [
      (fifo, "is not a regular file but a FIFO"),
      (root + "/folder", "is not a regular file but a folder"),
      (root + "/to-pipe", "is a symbolic link"),
    ] {
      let error = #expect(throws: InputError.self) {
        try FileIO.writeAtomically([1], to: path)
      }
      #expect(error?.kind == .cannotCreate)
      #expect(error?.location.file == path)
      #expect(error?.reason.contains(reason) == true, "\(error?.reason ?? "")")
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

  @Test("inputs: a FIFO is refused without blocking, like a folder or a device; NUL is refused")
  func inputKinds() throws {
    let fifo = root + "/pipe"
    #expect(mkfifo(fifo, 0o644) == 0)
    // Should a read block in open(2) on the FIFO (the defect), the writer end is opened after
    // at most 5 s, so the test fails instead of hanging.
    let rescue = Thread {
      for _ in 0..<100 {
        usleep(50_000)
        let fd = open(fifo, O_WRONLY | O_NONBLOCK)
        if fd >= 0 {
          close(fd)
          return
        }
      }
    }
    rescue.start()
    for (path, kind) in [(fifo, "a FIFO"), (root, "a folder"), ("/dev/null", "a character device")]
    {
      let error = #expect(throws: InputError.self) { try FileIO.read(path) }
      #expect(error?.kind == .missingInput)
      #expect(error?.reason == "is not a regular file but \(kind); inputs must be regular files")
    }
    try FileIO.writeAtomically(Array("x".utf8), to: root + "/track.txt")
    let error = #expect(throws: InputError.self) {
      try FileIO.read(root + "/track.txt\u{0}/../../etc/shadow")
    }
    #expect(error?.kind == .badData)
    #expect(error?.reason == "the path contains a NUL character")
  }
}
