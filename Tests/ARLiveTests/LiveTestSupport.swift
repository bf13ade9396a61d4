import ARLive
import Foundation
import Testing

/// A port that was free a moment ago (bound to 0 and released), for peers that need a port
/// number before they listen (socat).
func freePort() throws -> UInt16 {
  try TCPListener(endpoint: LoopbackEndpoint(port: 0)).endpoint.port
}

/// A child process (socat, ffmpeg) with a bounded wait.
final class Child {
  let process = Process()
  let standardError = Pipe()

  init(_ executable: String, _ arguments: [String], directory: String? = nil) throws {
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardError = standardError
    process.standardOutput = FileHandle.nullDevice
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    try process.run()
  }

  /// Waits at most `seconds` for the exit; kills the child after that. Returns the status
  /// (nil: killed).
  @discardableResult
  func wait(seconds: Double = 10) -> Int32? {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while process.isRunning, Date() < deadline { usleep(10_000) }
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
      return nil
    }
    return process.terminationStatus
  }

  deinit { if process.isRunning { process.terminate() } }
}

/// Waits (at most 5 s) until something listens on 127.0.0.1:`port`, read from /proc/net/tcp so
/// that no connection is used up (socat without `fork` serves one).
func waitUntilListening(_ port: UInt16) throws {
  let needle = String(format: "0100007F:%04X", port)
  let deadline = Date(timeIntervalSinceNow: 5)
  while Date() < deadline {
    let table = (try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)) ?? ""
    if table.split(separator: "\n").contains(where: {
      let f = $0.split(separator: " ")
      return f.count > 3 && f[1] == needle && f[3] == "0A"
    }) {
      return
    }
    usleep(10_000)
  }
  Issue.record("nothing listened on port \(port) within 5 s")
}

let socat = "/usr/bin/socat"

/// Runs `body` on a thread of its own and returns a way to wait for its result (bounded).
final class Background<T: Sendable>: @unchecked Sendable {
  private let done = NSCondition()
  private var result: Result<T, any Error>?

  init(_ body: @escaping @Sendable () throws -> T) {
    let thread = Thread { [self] in
      let r = Result { try body() }
      done.lock()
      result = r
      done.broadcast()
      done.unlock()
    }
    thread.start()
  }

  /// The result, waiting at most `seconds`.
  func value(seconds: Double = 10) throws -> T {
    done.lock()
    defer { done.unlock() }
    let deadline = Date(timeIntervalSinceNow: seconds)
    while result == nil, done.wait(until: deadline) {}
    guard let result else { throw TimedOut() }
    return try result.get()
  }

  struct TimedOut: Error {}
}
