/// Runs the `arsim` command line with `arguments` (without the program name) and returns the
/// process exit code (sysexits: 0 ok, 1 images differ, 64 usage, 65 bad data, 66 missing input,
/// 70 internal).
public func run(arguments: [String]) -> Int32 {
  0
}
