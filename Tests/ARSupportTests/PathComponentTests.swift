import ARSupport
import ARTestSupport
import Testing

/// `FileIO.lastComponent` and `parentFolder`, which replace Foundation's path methods: those
/// trapped (SIGILL) on a one-character folder such as `arsim report .` or `report y` (a
/// newcomer's finding).
@Suite struct PathComponentTests {
  @Test(
    "the last component, trailing slashes ignored",
    arguments: [
      ("y", "y"), (".", "."), ("./y", "y"), ("runs/out/", "out"), ("/a/b//", "b"), ("/", "/"),
      ("//", "/"), ("/y", "y"), ("", ""),
    ])
  func lastComponent(path: String, expected: String) {
    #expect(FileIO.lastComponent(path) == expected)
  }

  @Test("the parent folder of an existing path, resolved; nil for a missing one")
  func parentFolder() throws {
    let folder = TemporaryFolder("parent")
    defer { folder.remove() }
    let base = try #require(FileIO.realPath(folder.path))
    try FileIO.createDirectory(folder.path + "/y")
    #expect(FileIO.parentFolder(of: folder.path + "/y") == base)
    #expect(FileIO.parentFolder(of: folder.path + "/y/") == base)
    #expect(FileIO.parentFolder(of: folder.path + "/y/.") == base)
    #expect(FileIO.parentFolder(of: folder.path + "/y/..") == FileIO.parentFolder(of: base))
    #expect(FileIO.parentFolder(of: "/") == "/")
    #expect(FileIO.parentFolder(of: folder.path + "/missing") == nil)
  }
}

/// How `OutputFolder` names a file in messages: `/x` in the root folder, not `//x` (a
/// newcomer's finding: `strokes … --out /tmp` said `//tmp`).
@Suite struct OutputFolderShownTests {
  @Test(
    "folder/name, with one slash",
    arguments: [("/", "x", "/x"), (".", "x", "x"), ("a", "x", "a/x"), ("a/", "x", "a/x")])
  func shown(folder: String, name: String, expected: String) throws {
    let opened = try OutputFolder(
      folder == "a" || folder == "a/" ? "/tmp" : folder, shownAs: folder)
    #expect(opened.shown(name) == expected)
  }
}
