import ARSimCLI
import CMalloc

#if canImport(Glibc)
  import Glibc
#endif

// Frames (11 MB at 1920 × 1440) are allocated on the scene thread and freed on an encoder's
// every frame; under glibc's default thresholds their pages went back to the kernel and faulted
// in again (≈ 840 page faults per B1 frame; Documentation/Performance.md, "Ninth round").
arsim_malloc_keep_freed_blocks()

// A reader that closes its end (`arsim compare … | head -1`) makes writes fail with EPIPE, which
// the commands report as 74 after finishing their files, instead of SIGPIPE killing the process
// part-way (a report.html lost).
signal(SIGPIPE, SIG_IGN)

// An argument that is not UTF-8 would reach the commands with U+FFFD in place of its bytes (a
// token or a file name silently changed): a usage error, before any command runs.
for index in 1..<Int(CommandLine.argc) {
  guard let raw = CommandLine.unsafeArgv[index], String(validatingCString: raw) == nil else {
    continue
  }
  let message =
    "arsim: error: argument \(index) is not valid UTF-8 (tokens, names and paths "
    + "are read as UTF-8 text)\n"
  _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
  exit(64)
}

exit(run(arguments: Array(CommandLine.arguments.dropFirst())))
