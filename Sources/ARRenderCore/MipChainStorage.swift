/// The texels and level layout of one mip chain (`MipmappedTexture`) in memory of its own,
/// written once when the chain is built and never changed, freed with the last reference.
///
/// Its addresses hold for its lifetime, so a frame that keeps the texture takes them once
/// and its shading loops read texels by pointer without touching a reference count per run
/// (two render threads retaining one array's buffer per shaded run moved its cache line
/// between the cores: about 5 % of the environment bench B5's samples on a Zen 1 EPYC).
package final class MipChainStorage: @unchecked Sendable {
  // @unchecked: the buffers are written in `init` only and read-only afterwards.
  /// RGBA8 texels of every level, level 0 first.
  package let texels: UnsafeBufferPointer<UInt8>
  /// Per level, largest first: width, height (texels) and byte offset into `texels`.
  package let layout: UnsafeBufferPointer<SIMD3<Int>>

  /// Allocates `byteCount` texel bytes for `layout`, zeroed, and lets `fill` write them.
  init(layout: [SIMD3<Int>], byteCount: Int, fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
    let texels = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: byteCount)
    texels.initialize(repeating: 0)
    fill(texels)
    self.texels = UnsafeBufferPointer(texels)
    let levels = UnsafeMutableBufferPointer<SIMD3<Int>>.allocate(capacity: layout.count)
    _ = levels.initialize(from: layout)
    self.layout = UnsafeBufferPointer(levels)
  }

  deinit {
    UnsafeMutableBufferPointer(mutating: texels).deallocate()
    UnsafeMutableBufferPointer(mutating: layout).deallocate()
  }

  /// Whether both hold the same layout and texel bytes.
  func hasSameContents(as other: MipChainStorage) -> Bool {
    guard self !== other else { return true }
    guard texels.count == other.texels.count, layout.elementsEqual(other.layout) else {
      return false
    }
    return texels.elementsEqual(other.texels)
  }
}
