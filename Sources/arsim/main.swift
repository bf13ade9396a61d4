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

exit(run(arguments: Array(CommandLine.arguments.dropFirst())))
