// swift-tools-version:6.0
import PackageDescription

/// C++ interoperability on every Swift target: GLM is a C++ library and a module that imports
/// a C++-enabled module must itself enable interop.
let cxxInterop: [SwiftSetting] = [.interoperabilityMode(.Cxx)]

/// The rasterizer's sources compiled twice more, for the x86-64-v3 (AVX2, FMA: Intel Haswell,
/// 2013, and later; AMD Zen) and x86-64-v4 (AVX-512: Intel Skylake-SP, AMD Zen 4) levels:
/// `Sources/ARRasterizerAVX2` and `Sources/ARRasterizerAVX512` are links to
/// `Sources/ARRasterizer`, and `Renderer` picks the best build the processor runs
/// (Documentation/Performance.md, "Rasterizer builds"). The Float kernels work on eight lanes
/// (256-bit registers) in the AVX2 build and on sixteen (512-bit) in the AVX-512 one
/// (`FloatLanes`); the output bytes are the same. The C++
/// standard-library module cannot be built for these targets while `__SSE3__` is defined
/// (libstdc++'s <random> then includes <pmmintrin.h>, a module cycle), so the Clang importer
/// runs without that macro; code generation keeps the features. Each build defines
/// `ARSIM_RASTERIZER_<LEVEL>` so that tests can tell which one ran.
///
/// These builds need `-target-cpu`, an unsafe flag, so they are left out (the baseline build
/// then runs, with the same bytes):
/// - when the package is a dependency checked out by SwiftPM or Xcode (a `checkouts` folder):
///   SwiftPM refuses unsafe flags in versioned dependencies;
/// - when `ARSIM_BASELINE_ONLY` is set, e.g. to cross-compile for another architecture (the
///   manifest only sees the host's);
/// - on hosts other than x86-64.
#if arch(x86_64)
  let vectorBuildsWanted =
    Context.environment["ARSIM_BASELINE_ONLY"] == nil
    && !Context.packageDirectory.split(separator: "/").contains("checkouts")
#else
  let vectorBuildsWanted = false
#endif
let vectorRasterizers: [Target] =
  vectorBuildsWanted
  ? [
    ("ARRasterizerAVX2", "haswell", "ARSIM_RASTERIZER_AVX2"),
    ("ARRasterizerAVX512", "skylake-avx512", "ARSIM_RASTERIZER_AVX512"),
  ].map { name, cpu, define in
    .target(
      name: name, dependencies: ["ARRenderCore", "CLaneMath"],
      swiftSettings: cxxInterop + [
        .define(define), .unsafeFlags(["-target-cpu", cpu, "-Xcc", "-U__SSE3__"]),
      ])
  } : []

let package = Package(
  name: "ARSim",
  products: [
    .executable(name: "arsim", targets: ["arsim"]),
    .library(name: "ARSimTesting", targets: ["ARSimTesting"]),
    // What a package defining its own session kind imports (Examples/PinKind).
    .library(name: "ARMath", targets: ["ARMath"]),
    .library(name: "ARScene", targets: ["ARScene"]),
    .library(name: "ARSupport", targets: ["ARSupport"]),
    .library(name: "ARRenderCore", targets: ["ARRenderCore"]),
    .library(name: "ARRender", targets: ["ARRender"]),
    .library(name: "ARCollaboration", targets: ["ARCollaboration"]),
    .library(name: "ARReplay", targets: ["ARReplay"]),
    .library(name: "ARFormats", targets: ["ARFormats"]),
    .library(name: "ARSession", targets: ["ARSession"]),
    .library(name: "ARTracking", targets: ["ARTracking"]),
    .library(name: "ARRemoteAssist", targets: ["ARRemoteAssist"]),
    .library(name: "ARMeasure", targets: ["ARMeasure"]),
    .library(name: "ARDisplayer", targets: ["ARDisplayer"]),
    .library(name: "ARSimCLI", targets: ["ARSimCLI"]),
  ],
  targets: [
    // MARK: Shims
    .systemLibrary(
      name: "CPNGSystem", path: "Sources/CPNGSystem", pkgConfig: "libpng",
      providers: [.apt(["libpng-dev", "pkg-config"])]),
    .target(name: "CPNG", dependencies: ["CPNGSystem"], path: "Sources/CPNG"),
    .target(name: "CPUFeatures", path: "Sources/CPUFeatures"),
    .target(name: "CMalloc", path: "Sources/CMalloc"),
    // Vector square roots for the rasterizer's Float lanes (header only: static inline).
    .target(name: "CLaneMath", path: "Sources/CLaneMath"),
    .systemLibrary(
      name: "CISAL", path: "Sources/CISAL", pkgConfig: "libisal",
      providers: [.apt(["libisal-dev"])]),
    .target(
      name: "CPNGWriter", dependencies: ["CISAL", "CPUFeatures"], path: "Sources/CPNGWriter"),
    .systemLibrary(
      name: "CGLM", path: "Sources/CGLM", providers: [.apt(["libglm-dev"])]),
    .systemLibrary(
      name: "CTurboJPEG", path: "Sources/CTurboJPEG", pkgConfig: "libturbojpeg",
      providers: [.apt(["libturbojpeg0-dev"])]),
    .systemLibrary(
      name: "CAssimp", path: "Sources/CAssimp", pkgConfig: "assimp",
      providers: [.apt(["libassimp-dev"])]),
    // Assimp in a forked child process (Documentation/Environments.md, "Reading models").
    .target(name: "CModelReader", dependencies: ["CAssimp"], path: "Sources/CModelReader"),
    .systemLibrary(
      name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2",
      providers: [.apt(["libfreetype-dev", "pkg-config"])]),

    // MARK: Public
    // Located errors, file I/O and JSON text: below formats and rendering alike.
    .target(name: "ARSupport"),
    // Child processes with bounded waits (ffmpeg, ffprobe): below the video export and camera
    // images alike. C++ interop for `pipe2` (the C++ importer defines _GNU_SOURCE).
    .target(name: "ARChildProcess", swiftSettings: cxxInterop),
    .target(
      name: "ARMath", dependencies: ["CGLM"], swiftSettings: cxxInterop,
      linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
    .target(name: "ARScene", dependencies: ["ARMath"], swiftSettings: cxxInterop),
    .target(name: "ARRenderCore", dependencies: ["ARScene"], swiftSettings: cxxInterop),
    .target(
      name: "ARRasterizer", dependencies: ["ARRenderCore", "CLaneMath"], swiftSettings: cxxInterop),
    .target(
      name: "ARRender",
      dependencies: [
        "ARSupport", "ARRenderCore", "ARRasterizer", "CPNG", "CPNGWriter", "CPUFeatures",
      ]
        + vectorRasterizers.map { .target(name: $0.name) },
      swiftSettings: cxxInterop),
    // Environments (issue 28): the scene file's `environment` section, models through Assimp,
    // built-in primitives, textures.
    .target(
      name: "AREnvironment",
      dependencies: [
        "ARSupport", "ARMath", "ARScene", "ARSession", "ARRenderCore", "ARRender", "CModelReader",
      ],
      swiftSettings: cxxInterop),
    // Input formats (camera tracks, stroke logs, Quick, Draw!, YUV4MPEG2, located JSON): no
    // frame loop, no rasterizer.
    .target(
      name: "ARFormats",
      dependencies: ["ARSupport", "ARMath", "ARScene", "ARRenderCore", "ARTracking"],
      swiftSettings: cxxInterop),
    // ARKit's tracking as phones track (Documentation/Tracking.md): tracking states, seeded
    // pose error, relocalisation, dropped frames; pure logic the frame loop calls per tick.
    .target(
      name: "ARTracking", dependencies: ["ARSupport", "ARMath", "ARScene"],
      swiftSettings: cxxInterop),
    // Recorded camera images (issue 29): image lists, PNG/JPEG decoding, videos through ffmpeg
    // (ARChildProcess), the lens, resampling onto the output camera, decoding ahead of the
    // frame loop.
    .target(
      name: "ARCameraImages",
      dependencies: [
        "ARSupport", "ARScene", "ARRenderCore", "ARRender", "CTurboJPEG", "ARChildProcess",
      ],
      swiftSettings: cxxInterop),
    // The session interface apps implement, session kinds, message sources, overlays.
    .target(
      name: "ARSession",
      dependencies: [
        "ARSupport", "ARFormats", "ARMath", "ARScene", "ARRenderCore", "ARTracking",
      ],
      swiftSettings: cxxInterop),
    // One target per source app: the session core and the formats, never the frame loop or
    // another app.
    .target(
      name: "ARRemoteAssist",
      dependencies: ["ARSession", "ARFormats", "ARMath", "ARScene", "ARRenderCore"],
      swiftSettings: cxxInterop),
    .target(
      name: "ARMeasure", dependencies: ["ARSession", "ARMath", "ARScene"],
      swiftSettings: cxxInterop),
    .target(
      name: "ARDisplayer", dependencies: ["ARSession", "ARFormats", "ARMath", "ARScene"],
      swiftSettings: cxxInterop),
    .target(
      name: "ARCollaboration", dependencies: ["ARSession", "ARFormats", "ARMath", "ARScene"],
      swiftSettings: cxxInterop),
    // The scene file's common part, the frame loop, outputs and the bench: no app.
    .target(
      name: "ARReplay",
      dependencies: ["ARSession", "ARFormats", "ARRender", "ARCameraImages", "AREnvironment"],
      swiftSettings: cxxInterop),
    // Live streaming and live strokes over loopback sockets (seed 004): above the frame loop.
    .target(
      name: "ARLive",
      dependencies: ["ARReplay", "ARSession", "ARFormats", "ARSupport", "ARRemoteAssist"],
      swiftSettings: cxxInterop),
    .target(name: "ARSimTesting", dependencies: ["ARRender"], swiftSettings: cxxInterop),
    // Shards of a render and their merge (Documentation/Scaling.md): file I/O and JSON only.
    .target(name: "ARBatch", dependencies: ["ARSupport"], swiftSettings: cxxInterop),
    // Outputs people watch (issue 20): on-screen text, MP4 video through ffmpeg, report.html.
    .target(
      name: "ARText", dependencies: ["ARRenderCore", "CFreeType"], swiftSettings: cxxInterop),
    .target(
      name: "ARVideoExport", dependencies: ["ARChildProcess", "ARRender", "ARSession"],
      swiftSettings: cxxInterop),
    .target(
      name: "ARHeadsUpDisplay", dependencies: ["ARSession", "ARText", "ARRenderCore"],
      swiftSettings: cxxInterop),
    .target(name: "ARReport", dependencies: ["ARRender", "ARSupport"], swiftSettings: cxxInterop),

    // MARK: Tools
    // The command line: registers the built-in session kinds.
    .target(
      name: "ARSimCLI",
      dependencies: [
        "ARReplay", "ARCameraImages", "ARRemoteAssist", "ARMeasure", "ARDisplayer", "ARBatch",
        "ARCollaboration", "ARText", "ARVideoExport", "ARReport", "ARHeadsUpDisplay", "ARLive",
      ],
      swiftSettings: cxxInterop),
    .executableTarget(
      name: "arsim", dependencies: ["ARSimCLI", "CMalloc"], swiftSettings: cxxInterop),

    // MARK: Tests
    // Helpers every test target shares (temporary folders, captured command output, the
    // fixtures in Tests/__Fixtures__, video checks, a rendered run); a plain target, not a
    // product.
    .target(
      name: "ARTestSupport",
      dependencies: ["ARSimCLI", "ARSupport", "ARMath", "ARChildProcess", "ARRender", "ARReplay"],
      path: "Tests/ARTestSupport", swiftSettings: cxxInterop),
    .testTarget(name: "ARMathTests", dependencies: ["ARMath"], swiftSettings: cxxInterop),
    .testTarget(name: "ARSceneTests", dependencies: ["ARScene"], swiftSettings: cxxInterop),
    .testTarget(
      name: "ARCameraImagesTests",
      dependencies: [
        "ARCameraImages", "ARRender", "ARReplay", "ARSimCLI", "ARSession", "ARTestSupport",
      ],
      exclude: ["__Fixtures__"], swiftSettings: cxxInterop),
    .testTarget(
      name: "ARTrackingTests", dependencies: ["ARTracking", "ARMath", "ARScene"],
      swiftSettings: cxxInterop),
    .testTarget(
      name: "ARTextTests", dependencies: ["ARText", "ARRender"], swiftSettings: cxxInterop),
    .testTarget(
      name: "ARVideoExportTests",
      dependencies: ["ARVideoExport", "ARRender", "ARChildProcess", "ARTestSupport"],
      swiftSettings: cxxInterop),
    .testTarget(
      name: "ARReportTests",
      dependencies: [
        "ARReport", "ARRender", "ARReplay", "ARSession", "ARSimCLI", "ARTestSupport",
      ],
      swiftSettings: cxxInterop),
    .testTarget(
      name: "ARHeadsUpDisplayTests",
      dependencies: [
        "ARHeadsUpDisplay", "ARText", "ARMeasure", "ARRender", "ARReplay", "ARScene", "ARSession",
        "ARSimCLI", "ARSimTesting", "ARTestSupport",
      ],
      exclude: ["__Goldens__"], swiftSettings: cxxInterop),
    .testTarget(
      name: "ARRenderTests",
      dependencies: ["ARRender", "ARRasterizer", "CLaneMath", "CPNGWriter", "ARTestSupport"],
      exclude: ["__Fixtures__"],
      swiftSettings: cxxInterop),
    // The frame loop's own tests: the scene file's common part, outputs, plane visuals,
    // tracking in the loop (apps and formats have their own targets below).
    .testTarget(
      name: "ARReplayTests",
      dependencies: [
        "ARReplay", "ARSimCLI", "ARFormats", "ARSession", "ARRemoteAssist", "ARRender", "ARScene",
        "ARMath", "ARTracking", "ARSupport", "ARTestSupport",
      ],
      swiftSettings: cxxInterop),
    .testTarget(
      name: "ARFormatsTests",
      dependencies: ["ARFormats", "ARMath", "ARSupport", "ARTestSupport"],
      swiftSettings: cxxInterop),
    .testTarget(
      name: "ARRemoteAssistTests",
      dependencies: [
        "ARRemoteAssist", "ARFormats", "ARMath", "ARScene", "ARSession", "ARSupport", "ARRender",
        "ARReplay", "ARSimCLI", "ARTestSupport",
      ],
      swiftSettings: cxxInterop),
    .testTarget(
      name: "ARMeasureTests",
      dependencies: ["ARMeasure", "ARMath", "ARScene", "ARSession", "ARSupport"],
      swiftSettings: cxxInterop),
    .testTarget(
      name: "ARDisplayerTests",
      dependencies: [
        "ARDisplayer", "ARFormats", "ARMath", "ARScene", "ARSession", "ARSupport", "ARTestSupport",
      ],
      swiftSettings: cxxInterop),
    // A user's own session kind, through the public API only.
    .testTarget(
      name: "CustomSessionTests",
      dependencies: [
        "ARSimCLI", "ARReplay", "ARSession", "ARRender", "ARScene", "ARMath", "ARTestSupport",
      ],
      swiftSettings: cxxInterop),
    .testTarget(
      name: "ARLiveTests",
      dependencies: [
        "ARLive", "ARSimCLI", "ARFormats", "ARSupport", "ARRender", "ARTestSupport", "ARBatch",
      ],
      exclude: ["__Fixtures__"], swiftSettings: cxxInterop),
    .testTarget(
      name: "ARSimCLITests",
      dependencies: [
        "ARSimCLI", "ARRender", "ARFormats", "ARTestSupport", "ARChildProcess", "ARVideoExport",
        "ARReport",
      ],
      swiftSettings: cxxInterop),
    .testTarget(
      name: "ARBatchTests", dependencies: ["ARBatch", "ARSimCLI", "ARTestSupport"],
      swiftSettings: cxxInterop),
    .testTarget(
      name: "ARSupportTests", dependencies: ["ARSupport", "ARTestSupport"],
      swiftSettings: cxxInterop),
    .testTarget(
      name: "ARChildProcessTests", dependencies: ["ARChildProcess"], swiftSettings: cxxInterop),
    .testTarget(
      name: "ARSessionTests", dependencies: ["ARSession", "ARMath", "ARSupport"],
      swiftSettings: cxxInterop),
    .testTarget(
      name: "ARCollaborationTests",
      dependencies: [
        "ARCollaboration", "ARSession", "ARMath", "ARScene", "ARFormats", "ARReplay", "ARSimCLI",
        "ARRender", "ARTestSupport",
      ],
      exclude: ["__Fixtures__"],
      swiftSettings: cxxInterop),
    .testTarget(
      name: "RenderGoldenTests",
      dependencies: ["ARReplay", "ARSimCLI", "ARSimTesting", "ARTestSupport"],
      exclude: ["__Goldens__"], swiftSettings: cxxInterop),
    .testTarget(
      name: "AREnvironmentTests",
      dependencies: [
        "AREnvironment", "ARRender", "ARRenderCore", "ARScene", "ARMath", "ARSession",
        "ARTestSupport",
      ],
      exclude: ["__Fixtures__"], swiftSettings: cxxInterop),
    .testTarget(
      name: "ARSimTestingTests", dependencies: ["ARSimTesting", "ARRender", "ARTestSupport"],
      exclude: ["__Goldens__"], swiftSettings: cxxInterop),
  ],
  cxxLanguageStandard: .cxx17
)
package.targets += vectorRasterizers

// MARK: Fuzzing
// libFuzzer harnesses for every reader (Fuzz/), present only when Scripts/fuzz sets ARSIM_FUZZ,
// so the normal build never sees a target that needs `-sanitize=fuzzer` to link.
if Context.environment["ARSIM_FUZZ"] != nil {
  package.targets.append(
    .executableTarget(
      name: "ARSimFuzz",
      dependencies: [
        "ARSimCLI", "ARRemoteAssist", "ARCollaboration", "ARCameraImages", "ARLive",
        "AREnvironment",
      ],
      path: "Fuzz/ARSimFuzz",
      swiftSettings: cxxInterop))
}
