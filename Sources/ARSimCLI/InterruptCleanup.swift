import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Cleans up when SIGINT or SIGTERM ends the process — runs `actions` (`render --video`: kill
/// ffmpeg, remove its temporary file), then removes a private folder (the bench's
/// `/tmp/arsim-bench-XXXXXX`) — and ends it by that signal as the default action would (status
/// 130 or 143 in a shell). The handler only writes the signal's number to a pipe
/// (async-signal-safe); a thread of its own does the work, removing the folder again until it
/// is gone (a frame written meanwhile into it makes `rmdir` fail once; a removed folder takes
/// no new files), then re-raises.
final class InterruptCleanup: @unchecked Sendable {  // set once, then read by two threads
  private let folder: String?
  private let actions: @Sendable () -> Void
  private let readDescriptor: Int32
  private let writeDescriptor: Int32

  /// Starts watching for SIGINT and SIGTERM; `finish()` stops it (the folder stays then).
  /// When no pipe can be made nothing is watched (the folder is removed only by `finish`'s
  /// caller).
  init(removing folder: String? = nil, actions: @escaping @Sendable () -> Void = {}) {
    self.folder = folder
    self.actions = actions
    var fds: [Int32] = [-1, -1]
    if pipe2(&fds, O_CLOEXEC) != 0 { fds = [-1, -1] }
    readDescriptor = fds[0]
    writeDescriptor = fds[1]
    guard readDescriptor >= 0 else { return }
    cleanupWriteDescriptor = writeDescriptor
    for number in [SIGINT, SIGTERM] {
      signal(number) { number in
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(cleanupWriteDescriptor, &byte, 1)
      }
    }
    // A parent may have started us with them blocked (a test runner's dispatch thread blocks
    // them): they would stay pending, the handler never run and the process never end. The
    // watching thread starts after the unblock so it inherits it: its `raise` is directed at
    // itself, and a signal it blocked would be discarded with the thread, the run going on.
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGINT)
    sigaddset(&signals, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    let thread = Thread { [self] in watch() }
    thread.start()
  }

  /// Restores the default actions and ends the watching thread (byte 0).
  func finish() {
    guard readDescriptor >= 0 else { return }
    signal(SIGINT, SIG_DFL)
    signal(SIGTERM, SIG_DFL)
    var byte: UInt8 = 0
    _ = write(writeDescriptor, &byte, 1)
  }

  private func watch() {
    var byte: UInt8 = 0
    while read(readDescriptor, &byte, 1) < 0, errno == EINTR {}
    guard byte != 0 else { return }
    actions()
    if let folder {
      for _ in 0..<50 where FileManager.default.fileExists(atPath: folder) {
        try? FileManager.default.removeItem(atPath: folder)
      }
    }
    signal(Int32(byte), SIG_DFL)
    raise(Int32(byte))
  }
}

/// The write end of the active `InterruptCleanup`'s pipe, for the C signal handler (it cannot
/// capture).
nonisolated(unsafe) private var cleanupWriteDescriptor: Int32 = -1
