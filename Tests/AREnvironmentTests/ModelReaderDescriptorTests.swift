import ARSupport
import AREnvironment
import ARTestSupport
import Foundation
import Testing

/// The model reader's child process must not keep the parent's descriptors: an output folder's
/// lock (`flock` follows the open file) would stay held by the child while Assimp parses, and
/// another run into that folder would be refused (75) as if a second process wrote there.
@Suite("Model reader child and the parent's descriptors")
struct ModelReaderDescriptorTests {
  /// This process's children (`/proc/self/task/*/children`).
  static func children() -> [String] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.flatMap { task in
      ((try? String(contentsOfFile: "/proc/self/task/\(task)/children", encoding: .utf8)) ?? "")
        .split(separator: " ").map(String.init)
    }
  }

  @Test("a folder lock released while Assimp's child parses can be taken again at once")
  func lockNotInherited() throws {
    let folder = TemporaryFolder("model-lock").path
    try FileManager.default.createDirectory(
      atPath: folder + "/out", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // A grid OBJ large enough that Assimp's child parses it for a while.
    let side = 700
    var text = ""
    text.reserveCapacity(side * side * 60)
    for y in 0...side {
      for x in 0...side { text += "v \(x) \(y) \((x * 7 + y * 3) % 5)\n" }
    }
    for y in 0..<side {
      for x in 0..<side {
        let a = y * (side + 1) + x + 1
        text += "f \(a) \(a + 1) \(a + side + 2)\nf \(a) \(a + side + 2) \(a + side + 1)\n"
      }
    }
    let model = folder + "/grid.obj"
    try text.write(toFile: model, atomically: false, encoding: .utf8)

    let output = try OutputFolder(folder + "/out")
    let before = Set(Self.children())
    let lock = try output.lock(waiting: false)
    let reader = Thread { _ = try? ModelFile.read(path: model) }
    reader.start()
    // Wait (bounded) until the reader's child exists, then release and take the lock again.
    let deadline = Date().addingTimeInterval(30)
    var child: String?
    while child == nil, Date() < deadline {
      child = Set(Self.children()).subtracting(before).first
      if child == nil { Thread.sleep(forTimeInterval: 0.001) }
    }
    lock.release()
    let again = Result { try output.lock(waiting: false) }
    let childAlive = child.map { FileManager.default.fileExists(atPath: "/proc/\($0)") } ?? false
    #expect(child != nil && childAlive, "no model-reader child seen while the lock was retaken")
    #expect(throws: Never.self) { try again.get() }
    try? again.get().release()
    let end = Date().addingTimeInterval(60)
    while reader.isExecuting && Date() < end { Thread.sleep(forTimeInterval: 0.05) }
  }
}
