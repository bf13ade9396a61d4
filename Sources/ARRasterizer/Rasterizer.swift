import ARMath
import ARRenderCore
import ARScene
import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The software rasterizer behind `ARRender.Renderer`: draws a `RenderList` through a `Camera`
/// into an RGBA8 image and an optional depth map.
///
/// Pipeline (Documentation/Rendering.md): prepare primitives in camera space → per band of
/// rows: opaque visibility (depth + primitive id per sample, spheres by exact ray casting,
/// triangles by top-left-rule edge functions) → deferred shading of each visible sample →
/// transparent primitives blended back to front → box-filter resolve to 8 bits. Bands are
/// independent, so the bytes are identical for any thread count.
///
/// This module's sources are compiled three times: as `ARRasterizer` for any x86-64 (or other)
/// processor, as `ARRasterizerAVX2` for x86-64-v3 (AVX2, FMA) and as `ARRasterizerAVX512` for
/// x86-64-v4 ones; `Renderer` picks one at run time. All give the same bytes (Swift does not
/// contract a · b + c into a fused multiply-add).
package enum Rasterizer {
  /// The level this build of the module is compiled for (the `ARSIM_RASTERIZER_…` defines of
  /// Package.swift), so that tests can tell which build ran.
  package static var compiledFor: InstructionSet {
    #if ARSIM_RASTERIZER_AVX512
      return .avx512
    #elseif ARSIM_RASTERIZER_AVX2
      return .avx2
    #else
      return .baseline
    #endif
  }

  /// Renders `list` seen by `camera` with `options` (see `ARRender.Renderer.render`).
  package static func render(
    _ list: RenderList, camera: Camera, options: RenderOptions
  ) -> RenderedFrame {
    render(list, camera: camera, options: options, sphereReferencePaths: false)
  }

  /// `render`, with the spheres' one-sample reference paths when `sphereReferencePaths`
  /// (tests compare the two): translucent spheres blended by `blendTranslucentSphereReference`
  /// and near-plane-cut uniform spheres' depths by `UniformSphereRow.clipReference`.
  package static func render(
    _ list: RenderList, camera: Camera, options: RenderOptions, sphereReferencePaths: Bool
  ) -> RenderedFrame {
    let width = max(0, camera.intrinsics.width)
    let height = max(0, camera.intrinsics.height)
    let scale = min(16, max(1, options.supersampling))
    let frame = {
      var prepared = PreparedFrame(
        list, camera: camera, sphereReferencePaths: sphereReferencePaths)
      prepared.sampleSpacing = 1 / Double(scale)
      return prepared
    }()
    let background = BackgroundSampler(
      options.background, width: width, height: height, scale: scale)
    var depth = options.writesDepth ? [Double](repeating: 0, count: width * height) : []
    guard width > 0, height > 0 else {
      return RenderedFrame(
        image: Image(width: width, height: height, fill: (0, 0, 0, 255)),
        depth: options.writesDepth ? DepthImage(width: width, height: height) : nil)
    }
    let bandRows = max(1, 16 / scale)
    let bandCount = (height + bandRows - 1) / bandRows
    let threads = min(bandCount, options.threads > 0 ? options.threads : Rasterizer.coreCount)
    let writesDepth = options.writesDepth
    let bins = frame.opaqueBins(bandRows: bandRows, bandCount: bandCount)
    // Not filled first: the bands cover every row and `resolveRow` writes every byte of a row.
    let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) {
      pixelBuffer, initializedCount in
      depth.withUnsafeMutableBufferPointer { depthBuffer in
        let output = BandOutput(pixels: pixelBuffer, depth: depthBuffer)
        // Dynamic scheduling: each worker takes the next unrendered band, so a band crowded
        // with spheres does not hold up the others. Bands write disjoint rows and their bytes
        // do not depend on which worker renders them.
        let nextBand = BandCounter()
        let work: @Sendable (Int) -> Void = { _ in
          let band = BandRenderer(
            frame: frame, background: background, width: width, height: height, scale: scale,
            bandRows: bandRows, writesDepth: writesDepth, bins: bins)
          var scratch = band.makeScratch()
          while true {
            let index = nextBand.value.wrappingAdd(1, ordering: .relaxed).oldValue
            guard index < bandCount else { break }
            band.render(firstRow: index * bandRows, scratch: &scratch, into: output)
          }
        }
        if threads <= 1 {
          work(0)
        } else {
          DispatchQueue.concurrentPerform(iterations: threads, execute: work)
        }
      }
      initializedCount = pixelBuffer.count
    }
    let image = Image(width: width, height: height, pixels: pixels) ?? Image(width: 0, height: 0)
    var result = RenderedFrame(
      image: image,
      depth: writesDepth
        ? DepthImage(
          width: width, height: height, millimetres: depth.map(DepthImage.millimetres(fromMetres:)))
        : nil)
    result.depthMetres = depth
    TriangleStorage.give(frame.triangles)
    return result
  }

  /// The online CPU count (at least 1).
  package static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

  /// For each output pixel, how many primitives cover its centre, ignoring depth (tests).
  package static func coverageCounts(_ list: RenderList, camera: Camera) -> [Int] {
    let frame = PreparedFrame(list, camera: camera)
    let width = camera.intrinsics.width
    let height = camera.intrinsics.height
    var counts = [Int](repeating: 0, count: width * height)
    for entry in frame.opaque + frame.transparent {
      for v in 0..<height {
        for u in 0..<width {
          let x = Double(u)
          let y = Double(v)
          if entry.isSphere {
            let sphere = frame.spheres[entry.index]
            if sphere.depth(u: x, v: y, near: frame.near, far: frame.far) != nil {
              counts[v * width + u] += 1
            }
          } else if frame.triangles[entry.index].outline.covers(u: x, v: y) {
            counts[v * width + u] += 1
          }
        }
      }
    }
    return counts
  }
}

/// The index of the next band to render, shared by the workers.
final class BandCounter: Sendable {
  let value = Atomic<Int>(0)
}

/// Output buffers shared by the workers; each band writes only its own rows.
struct BandOutput: @unchecked Sendable {
  var pixels: UnsafeMutableBufferPointer<UInt8>
  var depth: UnsafeMutableBufferPointer<Double>
}

/// Background colour at any sample.
struct BackgroundSampler: Sendable {
  var background: Background
  var width: Int
  var height: Int
  /// An image background of the output's size at one sample per pixel (a camera image
  /// resampled onto the output camera): its RGBA bytes, which `copyRow` reads as they are.
  var pixelAligned: [UInt8]?

  init(_ background: Background, width: Int, height: Int, scale: Int) {
    self.background = background
    self.width = width
    self.height = height
    if case .image(let image) = background, image.width == width, image.height == height,
      scale == 1
    {
      pixelAligned = image.pixels
    }
  }

  /// Sets samples `start ..< start + columns.count` of `buffers` to the background at pixels
  /// `columns` of row v, when `pixelAligned`; false (nothing written) otherwise.
  ///
  /// The same values as `color`: there each sample sits on a pixel centre (x = u, y = v
  /// exactly), so the bilinear weights are 1 and 0 and the colour is `Double(byte) / 255`,
  /// narrowed to Float; `Float(byte) / 255` rounds to the same Float (a division rounded
  /// once to 24 bits equals one rounded to 53 and then to 24 bits, as 53 ≥ 2·24 + 2), and
  /// it vectorises.
  @inline(__always) func copyRow(
    _ v: Int, columns: Range<Int>, to start: Int, into buffers: SampleBuffers
  ) -> Bool {
    guard let pixels = pixelAligned else { return false }
    pixels.withUnsafeBufferPointer { pixels in
      guard let base = pixels.baseAddress, let r = buffers.red.baseAddress,
        let g = buffers.green.baseAddress, let b = buffers.blue.baseAddress
      else { return }
      let source = base + (v * width + columns.lowerBound) * 4
      var k = 0
      #if _endian(little)
        // `laneCount` pixels per step, one per 32-bit lane (R in the low byte): a byte n put
        // under the exponent of 2²³ is the Float 2²³ + n, so subtracting 2²³ gives Float(n)
        // exactly, without a lane-by-lane conversion.
        let exponent = UInt32Lanes(repeating: 0x4B00_0000)
        let bias = FloatLanes(repeating: 0x1p23)
        while k + laneCount <= columns.count {
          let words = UnsafeRawPointer(source + 4 * k).loadUnaligned(as: UInt32Lanes.self)
          func channel(_ shift: UInt32) -> FloatLanes {
            (FloatLanes(bitPattern: (words &>> shift) & 0xFF | exponent) - bias) / 255
          }
          UnsafeMutableRawPointer(r + start + k).storeBytes(of: channel(0), as: FloatLanes.self)
          UnsafeMutableRawPointer(g + start + k).storeBytes(of: channel(8), as: FloatLanes.self)
          UnsafeMutableRawPointer(b + start + k).storeBytes(of: channel(16), as: FloatLanes.self)
          k += laneCount
        }
      #endif
      for k in k..<columns.count {
        r[start + k] = Float(source[4 * k]) / 255
        g[start + k] = Float(source[4 * k + 1]) / 255
        b[start + k] = Float(source[4 * k + 2]) / 255
      }
    }
    return true
  }

  /// The colour of every sample of row v for a solid or gradient background (which do not
  /// depend on u), narrowed to Float; meaningless for an image.
  @inline(__always) func rowColor(v: Double) -> SIMD3<Float> {
    SIMD3<Float>(color(u: 0, v: v))
  }

  /// The colour at screen point (u, v) (pixels, centres at integers), 0…1.
  @inline(__always) func color(u: Double, v: Double) -> SIMD3<Double> {
    switch background {
    case .solid(let c):
      return SIMD3(c.red, c.green, c.blue).clamped(lowerBound: .zero, upperBound: .one)
    case .verticalGradient(let top, let bottom):
      let s = min(1, max(0, (v + 0.5) / Double(height)))
      let a = SIMD3(top.red, top.green, top.blue)
      let b = SIMD3(bottom.red, bottom.green, bottom.blue)
      return (a + (b - a) * s).clamped(lowerBound: .zero, upperBound: .one)
    case .image(let image):
      guard image.width > 0, image.height > 0 else { return .zero }
      let x = (u + 0.5) * Double(image.width) / Double(width) - 0.5
      let y = (v + 0.5) * Double(image.height) / Double(height) - 0.5
      return ShadingLights.sampleRGB(
        pixels: image.pixels, width: image.width, height: image.height, x: x, y: y)
    }
  }
}
