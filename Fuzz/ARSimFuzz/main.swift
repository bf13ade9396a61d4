#if canImport(Glibc)
  import Glibc
#endif

// SwiftPM renames an executable's `main` (to link tests against it), so libFuzzer's own `main`
// cannot be used; its documented `LLVMFuzzerRunDriver` entry runs the same driver from ours.

/// libFuzzer's driver: parses the usual flags from argc/argv and calls `callback` per input.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
  _ argc: UnsafeMutablePointer<Int32>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

var argumentCount = CommandLine.argc
var argumentVector: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argumentCount, &argumentVector) { fuzzTestOneInput($0, $1) })
