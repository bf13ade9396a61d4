import ARSimCLI

#if canImport(Glibc)
  import Glibc
#endif

exit(run(arguments: Array(CommandLine.arguments.dropFirst())))
