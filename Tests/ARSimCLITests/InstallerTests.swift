import ARTestSupport
import Foundation
import Testing

/// `Scripts/install-dependencies`: Scripts/demo installs only what rendering needs, the tests add
/// their peers, and README.md's Requirements lists exactly what each installs.
@Suite("Scripts/install-dependencies")
struct InstallerTests {
  static let repository = URL(fileURLWithPath: Fixtures.repository)

  /// The packages `Scripts/install-dependencies ARGUMENTS --list` prints.
  static func listed(_ arguments: [String]) throws -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments =
      [repository.appendingPathComponent("Scripts/install-dependencies").path]
      + arguments + ["--list"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  @Test("Scripts/test --help and --dry-run print what would run, installing and building nothing")
  func testScriptDryRun() throws {
    for arguments in [["--help"], ["--dry-run", "--filter", "ShardMergeTests"]] {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/bash")
      process.arguments = [Self.repository.appendingPathComponent("Scripts/test").path] + arguments
      // No swift on PATH (it lives in /opt/swift): a script that built would fail.
      process.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
      let pipe = Pipe()
      process.standardOutput = pipe
      try process.run()
      let data = pipe.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      let text = String(decoding: data, as: UTF8.self)
      #expect(process.terminationStatus == 0, "\(arguments): \(text)")
      #expect(text.contains("would run:\n  Scripts/install-dependencies --tests\n"), "\(text)")
      let last = arguments.count > 1 ? " --skip-build --filter ShardMergeTests" : " --skip-build"
      #expect(text.contains("swift test" + last), "\(text)")
    }
  }

  /// The first column of each package table in README.md's Requirements: the rendering table,
  /// then the tests' table.
  static func readmeTables() throws -> [[String]] {
    let readme = try String(
      contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
    let section = readme.components(separatedBy: "## Requirements\n").dropFirst().first ?? ""
    let requirements = section.components(separatedBy: "\n## ").first ?? ""
    var tables: [[String]] = []
    var inTable = false
    for line in requirements.split(separator: "\n", omittingEmptySubsequences: false) {
      let cells = line.trimmingCharacters(in: .whitespaces).split(separator: "|")
      guard line.trimmingCharacters(in: .whitespaces).hasPrefix("|"), let first = cells.first
      else {
        inTable = false
        continue
      }
      let name = first.trimmingCharacters(in: .whitespaces)
      guard name.hasPrefix("`"), name.hasSuffix("`") else { continue }  // header, rule
      if !inTable { tables.append([]) }
      inTable = true
      tables[tables.count - 1].append(String(name.dropFirst().dropLast()))
    }
    return tables
  }

  @Test("Scripts/demo installs the rendering list only; no test peer is in it")
  func renderingOnly() throws {
    let rendering = try Self.listed([])
    #expect(
      Set(rendering).isSuperset(of: [
        "pkg-config", "libpng-dev", "libisal-dev", "libglm-dev", "libfreetype-dev",
        "fonts-dejavu-core", "ffmpeg",
      ]))
    #expect(Set(rendering).isDisjoint(with: Self.peers), "\(rendering)")
    let demo = try String(
      contentsOf: Self.repository.appendingPathComponent("Scripts/demo"), encoding: .utf8)
    #expect(demo.contains("\nScripts/install-dependencies\n"))
    for script in ["Scripts/test", ".ci/run"] {
      let text = try String(
        contentsOf: Self.repository.appendingPathComponent(script), encoding: .utf8)
      #expect(text.contains("\nScripts/install-dependencies --tests"), "\(script)")
    }
  }

  /// Test peers of issue 27's list: none of them is needed to build or render.
  static let peers: Set<String> = [
    "chromium", "pngcheck", "qemu-user", "parallel", "slurm-wlm", "munge", "jq", "socat",
  ]

  @Test("README.md's two tables list exactly what each command installs")
  func readmeAgrees() throws {
    let rendering = try Self.listed([])
    let all = try Self.listed(["--tests"])
    let tables = try Self.readmeTables()
    #expect(tables.count == 2, "\(tables)")
    guard tables.count == 2 else { return }
    #expect(Set(tables[0]) == Set(rendering))
    #expect(Set(tables[1]) == Set(all).subtracting(rendering))
    #expect(Set(all).isSuperset(of: Self.peers))
    #expect(tables[0].count + tables[1].count == all.count, "a package listed twice")
  }
}
