// swift-tools-version:6.0
import PackageDescription

/// C++ interoperability on every Swift target: GLM is a C++ library and a module that imports
/// a C++-enabled module must itself enable interop.
let cxxInterop: [SwiftSetting] = [.interoperabilityMode(.Cxx)]

let package = Package(
  name: "ARSim",
  products: [
    .executable(name: "arsim", targets: ["arsim"]),
    .library(name: "ARSimTesting", targets: ["ARSimTesting"]),
    .library(name: "ARReplay", targets: ["ARReplay"]),
  ],
  targets: [
    // MARK: Shims
    .systemLibrary(
      name: "CPNGSystem", path: "Sources/CPNGSystem", pkgConfig: "libpng",
      providers: [.apt(["libpng-dev", "pkg-config"])]),
    .target(name: "CPNG", dependencies: ["CPNGSystem"], path: "Sources/CPNG"),
    .systemLibrary(
      name: "CGLM", path: "Sources/CGLM", providers: [.apt(["libglm-dev"])]),

    // MARK: Public
    .target(
      name: "ARMath", dependencies: ["CGLM"], swiftSettings: cxxInterop,
      linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
    .target(name: "ARScene", dependencies: ["ARMath"], swiftSettings: cxxInterop),
    .target(name: "ARRender", dependencies: ["ARScene", "CPNG"], swiftSettings: cxxInterop),
    .target(name: "ARReplay", dependencies: ["ARRender"], swiftSettings: cxxInterop),
    .target(name: "ARSimTesting", dependencies: ["ARRender"], swiftSettings: cxxInterop),

    // MARK: Tools
    .target(name: "ARSimCLI", dependencies: ["ARReplay"], swiftSettings: cxxInterop),
    .executableTarget(name: "arsim", dependencies: ["ARSimCLI"], swiftSettings: cxxInterop),

    // MARK: Tests
    .testTarget(name: "ARMathTests", dependencies: ["ARMath"], swiftSettings: cxxInterop),
    .testTarget(name: "ARSceneTests", dependencies: ["ARScene"], swiftSettings: cxxInterop),
    .testTarget(
      name: "ARRenderTests", dependencies: ["ARRender"], exclude: ["__Fixtures__"],
      swiftSettings: cxxInterop),
    .testTarget(
      name: "ARReplayTests", dependencies: ["ARReplay", "ARSimCLI"], exclude: ["__Fixtures__"],
      swiftSettings: cxxInterop),
    .testTarget(
      name: "ARSimCLITests", dependencies: ["ARSimCLI", "ARRender"], swiftSettings: cxxInterop),
    .testTarget(
      name: "RenderGoldenTests", dependencies: ["ARReplay", "ARSimTesting"],
      exclude: ["__Goldens__"], swiftSettings: cxxInterop),
    .testTarget(
      name: "ARSimTestingTests", dependencies: ["ARSimTesting", "ARRender"],
      exclude: ["__Goldens__"], swiftSettings: cxxInterop),
  ],
  cxxLanguageStandard: .cxx17
)

// MARK: Fuzzing
// libFuzzer harnesses for every reader (Fuzz/), present only when Scripts/fuzz sets ARSIM_FUZZ,
// so the normal build never sees a target that needs `-sanitize=fuzzer` to link.
if Context.environment["ARSIM_FUZZ"] != nil {
  package.targets.append(
    .executableTarget(
      name: "ARSimFuzz", dependencies: ["ARReplay"], path: "Fuzz/ARSimFuzz",
      swiftSettings: cxxInterop))
}

// MARK: Native build
// ARSIM_NATIVE=1 compiles every Swift target for AVX2 + FMA processors (Intel Haswell, 2013, and
// later; AMD Zen): the eight-lane Float kernels use 256-bit registers, about 1.3× faster, with
// byte-identical output (no floating-point contraction); the binary then requires such a CPU
// (Documentation/Performance.md). The C++ standard-library module cannot be built for that
// target while `__SSE3__` is defined (libstdc++'s <random> then includes <pmmintrin.h>, a module
// cycle), so the Clang importer runs without that macro; code generation keeps the features.
if Context.environment["ARSIM_NATIVE"] != nil {
  let native: [SwiftSetting] = [.unsafeFlags(["-target-cpu", "haswell", "-Xcc", "-U__SSE3__"])]
  for target in package.targets where target.type != .system && target.name != "CPNG" {
    target.swiftSettings = (target.swiftSettings ?? []) + native
  }
}
