// swift-tools-version:6.0
import PackageDescription

/// A package outside ARSim that defines its own session kind (`pin`) against ARSim's library
/// products only, runs it through `ARSimCLI.run(arguments:registry:frameSinks:)` with its own
/// frame sink, and checks its frames with `assertGolden` (Documentation/CustomSessions.md).
/// `.ci/run` builds it and runs its tests.
///
/// ARSim's modules enable C++ interoperability (GLM), so every module importing them does too.
let cxxInterop: [SwiftSetting] = [.interoperabilityMode(.Cxx)]

let package = Package(
  name: "PinKind",
  dependencies: [.package(name: "ARSim", path: "../..")],
  targets: [
    .target(
      name: "PinKind",
      dependencies: [
        .product(name: "ARSession", package: "ARSim"),
        .product(name: "ARScene", package: "ARSim"),
        .product(name: "ARMath", package: "ARSim"),
        .product(name: "ARSupport", package: "ARSim"),
        .product(name: "ARRenderCore", package: "ARSim"),
      ],
      swiftSettings: cxxInterop),
    .executableTarget(
      name: "pin-arsim",
      dependencies: ["PinKind", .product(name: "ARSimCLI", package: "ARSim")],
      swiftSettings: cxxInterop),
    .testTarget(
      name: "PinKindTests",
      dependencies: [
        "PinKind",
        .product(name: "ARSimCLI", package: "ARSim"),
        .product(name: "ARSimTesting", package: "ARSim"),
        .product(name: "ARSession", package: "ARSim"),
        .product(name: "ARRender", package: "ARSim"),
      ],
      exclude: ["__Goldens__"], swiftSettings: cxxInterop),
  ],
  cxxLanguageStandard: .cxx17
)
